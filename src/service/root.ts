// The composition root: the one place that builds this process's services — the terminal
// service, the crew (the hive at work, src/hive/live), the hive service, the status displays
// registered with the crew (tmux borders, iTerm2 tabs, notices), the recording notices and the idle closer — once,
// and ends them in one order (ROOT_ENDING_ORDER). Every door (MCP, gRPC, CLI, dashboard, HTTP)
// is handed a root and takes its services from it.
import type { Backend } from "../backends/backend.js";
import type { TermhiveConfig } from "../config.js";
import { Hive, profilesFrom } from "../hive/index.js";
import { Crew } from "../hive/live/crew.js";
import { Iterm2Tabs, Notices, TmuxBorders } from "../hive/displays/index.js";
import { EndingOrder } from "../util/lifecycle.js";
import { traceTo } from "../util/traced.js";
import { HiveService } from "./hive-service.js";
import { IdleCloser } from "../hive/live/idle-closer.js";
import { reportRecordingNotices } from "../hive/live/recording-notices.js";
import { TermhiveService } from "./service.js";

/**
 * The order this process's parts end in, written once: what acts on its own first (the closer,
 * the recording notices), then the crew (its displays, timers, SQLite), then the terminal (recordings,
 * run ends, the backend). A part failing to end does not keep the later ones (or the recordings) open.
 */
export const ROOT_ENDING_ORDER = ["idle closer", "recording notices", "crew", "terminal"] as const;

export interface ServiceRoot {
  readonly terminal: TermhiveService;
  readonly hive: HiveService;
  readonly crew: Crew;
  /** Ends everything this root started, in ROOT_ENDING_ORDER; safe to call twice. */
  dispose(): Promise<void>;
}

export interface RootOptions {
  /** A backend made by the caller (tests: the pty backend); default: the one the config selects. */
  backend?: Backend;
  /** Opens the hive store (tests); default: Hive.open on the config's home. */
  openHive?: () => Hive;
}

export function composeRoot(config: TermhiveConfig, options: RootOptions = {}): ServiceRoot {
  if (config.debug) traceTo((line) => process.stderr.write(line));
  const parts = new EndingOrder(ROOT_ENDING_ORDER);
  const terminal = new TermhiveService(config, options.backend);
  parts.set("terminal", terminal);
  const crew = new Crew({
    registry: terminal.registry,
    policy: terminal.policy,
    home: config.home,
    ensureRoomFor: (count) => terminal.ensureRoomFor(count),
    openHive: options.openHive ?? (() => Hive.open({ home: config.home, profiles: profilesFrom(config.profilesPath) })),
    notifyUrls: config.notifyUrls,
    agentSandbox: config.agentSandbox,
  });
  parts.set("crew", crew);
  crew.followRelays();
  crew.displays.add(new TmuxBorders(terminal.backend));
  crew.displays.add(new Notices({ home: config.home, notifyUrls: config.notifyUrls, audit: terminal.policy.audit, sessionName: (id) => terminal.registry.byId(id)?.name }));
  const hive = new HiveService(terminal, crew, [crew.displays.add(new Iterm2Tabs(terminal))]); // iTerm2 also brings a pane's tab to the front on hive_focus
  parts.set("recording notices", reportRecordingNotices(terminal, crew));
  parts.set("idle closer", config.idleCloseS > 0 ? new IdleCloser(terminal, crew) : undefined);
  return { terminal, hive, crew, dispose: () => parts.dispose() };
}
