// The composition root: the one place that builds this process's services — the terminal
// service, the crew (the hive at work, src/hive/live) with its status displays, the hive
// service, the recording notices and the idle closer — once, and stops them in one order.
// Every door (MCP, gRPC, CLI, dashboard, HTTP) is handed a root and takes its services from it.
import type { Backend } from "../backends/backend.js";
import type { TermhiveConfig } from "../config.js";
import { Hive, profilesFrom } from "../hive/index.js";
import { Crew } from "../hive/live/crew.js";
import { Iterm2Tabs, Notices, TmuxBorders } from "../hive/live/displays/index.js";
import { traceTo, traced } from "../util/traced.js";
import { HiveService } from "./hive-service.js";
import { IdleCloser } from "./idle-closer.js";
import { reportRecordingNotices } from "./recording-events.js";
import { TermhiveService } from "./service.js";

export interface ServiceRoot {
  readonly terminal: TermhiveService;
  readonly hive: HiveService;
  readonly crew: Crew;
  /** Stops everything this root started, in one order; safe to call twice. */
  shutdown(): Promise<void>;
}

export interface RootOptions {
  /** A backend made by the caller (tests: the pty backend); default: the one the config selects. */
  backend?: Backend;
  /** Opens the hive store (tests); default: Hive.open on the config's home. */
  openHive?: () => Hive;
}

export function composeRoot(config: TermhiveConfig, options: RootOptions = {}): ServiceRoot {
  if (config.debug) traceTo((line) => process.stderr.write(line));
  const terminal = new TermhiveService(config, options.backend);
  const crew = new Crew({
    registry: terminal.registry,
    policy: terminal.policy,
    home: config.home,
    ensureRoomFor: (count) => terminal.ensureRoomFor(count),
    openHive: options.openHive ?? (() => Hive.open({ home: config.home, profiles: profilesFrom(config.profilesPath) })),
    notifyUrls: config.notifyUrls,
    agentSandbox: config.agentSandbox,
  });
  crew.followRelays();
  crew.displays.add(new TmuxBorders(terminal.backend));
  crew.displays.add(new Notices({ home: config.home, notifyUrls: config.notifyUrls, audit: terminal.policy.audit, sessionName: (id) => terminal.registry.byId(id)?.name }));
  const hive = new HiveService(terminal, crew, [crew.displays.add(new Iterm2Tabs(terminal))]); // iTerm2 also brings a pane's tab to the front on hive_focus
  const stopRecordingNotices = reportRecordingNotices(terminal, crew);
  const closer = config.idleCloseS > 0 ? new IdleCloser(terminal, crew) : undefined;
  let stopped: Promise<void> | undefined;
  return {
    terminal,
    hive,
    crew,
    shutdown: () => (stopped ??= (async () => {
      // What acts on its own first (closer, recording notices), then the crew (displays, timers, SQLite),
      // then the sessions (recordings, run ends) and the backend.
      for (const step of [() => closer?.stop(), stopRecordingNotices, () => crew.close()]) {
        try {
          step();
        } catch (error) {
          traced("a shutdown step")(error); // one part failing to close must not keep the others (or the recordings) open
        }
      }
      await terminal.shutdown();
    })()),
  };
}
