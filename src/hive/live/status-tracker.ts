// Keeps every agent's status in step with its pane, event-driven. Its four jobs are one file
// each, and each sees the tracker only through StatusPort (status-port.ts):
//   status-screen.ts       screen change → (debounced) profile detection → agents.setStatus
//   status-self-reports.ts OSC 1337;Custom=id=termhive:… from the pane → the agent's own report
//   status-exits.ts        the pane's program exits / the pane vanishes → exited
//   status-follower.ts     another process's write (`termhive hook`, …) → followed through the
//                          store's WAL, checked against the screen before it is shown
// Which source wins over which: hive/rules/precedence.ts. Each change is written to the store (an
// event for every process), shown on the displays that must be current first (tmux borders:
// displays/status-display.ts, awaited), then announced in-process through `changed` (the
// crew's onAgentChanged) so hive_wait wakes at once and the other displays hear of it.
import type { Hive, AgentRecord } from "../index.js";
import type { PaneDisplay } from "../displays/status-display.js";
import { DisposableStore } from "../../util/lifecycle.js";
import type { TerminalSession } from "../../terminal/session/session.js";
import { ExitWatch } from "./status-exits.js";
import { StoreFollower } from "./status-follower.js";
import type { StatusPort, StatusWrite } from "./status-port.js";
import { ScreenDetection, heldFor, type ScreenEntry } from "./status-screen.js";
import { SelfReports } from "./status-self-reports.js";

interface Tracked extends ScreenEntry {
  detach: () => void;
}

export class StatusTracker implements StatusPort {
  private readonly tracked = new Map<string, Tracked>();
  /** Per agent, the status+time this process last announced: a followed event it made itself is not news. */
  private readonly announced = new Map<string, string>();
  private readonly follower: StoreFollower;
  private readonly screen: ScreenDetection;
  private readonly selfReports = new SelfReports(this);
  private readonly exits = new ExitWatch(this);

  constructor(
    readonly hive: Hive,
    private readonly displays: PaneDisplay,
    /** Tells the process of a change (Crew.onAgentChanged), after the pane displays show it. */
    private readonly changed: (agent: AgentRecord) => void,
    /** The session's host is down (its link dropped): its pane is out of reach, not closed. */
    private readonly hostDown: (session: TerminalSession) => boolean = () => false,
  ) {
    this.follower = new StoreFollower(this, {
      ids: () => [...this.tracked.keys()],
      session: (id) => this.tracked.get(id)?.session,
      judge: (id) => {
        const entry = this.tracked.get(id);
        if (entry) this.screen.evaluate(entry);
      },
    });
    this.screen = new ScreenDetection(this, () => this.follower.ensureFollowing());
  }

  /** A message is being typed into the session from `at` on (its shell's prompt cycle after that ends the turn). */
  typingInto(session: TerminalSession, at: number): void {
    this.screen.typingInto(session, at);
  }

  isTracked(session: TerminalSession): boolean {
    return this.tracked.get(session.id)?.session === session;
  }

  /**
   * Starts following a session (idempotent). `ready`: the program was seen ready already.
   * `adopted`: this process did not see the session's output so far (ScreenEntry.seededAt).
   */
  track(session: TerminalSession, options: { ready?: boolean; adopted?: boolean } = {}): void {
    const existing = this.tracked.get(session.id);
    if (existing?.session === session) return;
    existing?.detach();
    const entry: Tracked = { ...this.screen.entry(session, options), detach: () => {} };
    const wiring = new DisposableStore();
    wiring.add(session.onScreenChanged(() => this.screen.schedule(entry)));
    wiring.add(session.onCustom(({ id, payload }) => this.selfReports.reported(entry.session, id, payload)));
    wiring.add(session.onExited(({ status }) => this.exited(entry, status, undefined)));
    // Not followed until its host is back (the crew's sync adopts the pane again): its agents did not exit.
    wiring.add(session.onClosed((reason) => (this.hostDown(session) ? entry.detach() : this.exited(entry, entry.session.exitStatus, reason))));
    entry.detach = () => {
      this.screen.forget(entry);
      wiring.dispose();
      if (this.tracked.get(session.id) === entry) this.tracked.delete(session.id);
      this.follower.forget(session.id);
    };
    this.tracked.set(session.id, entry);
    if (!session.alive) this.exited(entry, session.exitStatus, session.goneReason ?? undefined);
    else this.screen.schedule(entry);
  }

  untrack(sessionId: string): void {
    const entry = this.tracked.get(sessionId);
    if (entry) this.displays.leave(entry.session, this.agentsOf(entry.session.id).length > 0);
    entry?.detach();
  }

  dispose(): void {
    for (const entry of [...this.tracked.values()]) entry.detach();
    this.follower.stop();
  }

  /**
   * Detects and records the session's statuses now, once its screen has caught up: a process
   * that just adopted the pane answers with what the pane shows, not with what the store last
   * heard from a process that may have exited since.
   */
  async evaluateNow(session: TerminalSession): Promise<void> {
    const entry = this.tracked.get(session.id);
    if (entry?.session !== session) return;
    await session.screen.settled();
    this.screen.evaluate(entry);
  }

  private exited(entry: Tracked, exitCode: number | null, reason: string | undefined): void {
    this.screen.cancel(entry);
    this.exits.exited(entry.session, exitCode, reason);
  }

  isNews(agent: AgentRecord): boolean {
    return this.announced.get(agent.name) !== `${agent.status}@${agent.updatedAt}`;
  }

  announce(agent: AgentRecord): void {
    // Heard once: a followed status and the same record's own announcement are one change.
    if (!this.isNews(agent)) return;
    this.announced.set(agent.name, `${agent.status}@${agent.updatedAt}`);
    this.changed(agent);
    // After the announcement: the re-check may record (and announce) what the screen shows now.
    const hold = heldFor(agent);
    const entry = hold > 0 && agent.sessionId ? this.tracked.get(agent.sessionId) : undefined;
    if (entry) this.screen.recheckAfterHold(entry, hold);
  }

  agentsOf(sessionId: string): readonly AgentRecord[] {
    return this.follower.agentsOf(sessionId);
  }

  rereadAgents(sessionId: string): void {
    this.follower.forget(sessionId);
  }

  /** Runs a status write; on a change, the pane displays show it, then waiters are told. */
  record(write: StatusWrite, session: TerminalSession): AgentRecord | undefined {
    let result: { agent: AgentRecord; changed: boolean };
    try {
      result = write();
    } catch {
      return undefined;
    }
    // The displays first (awaited), so whoever hears of the change sees it on screen too.
    if (result.changed) void this.title(session).finally(() => this.announce(result.agent));
    return result.agent;
  }

  /** Shows the pane's agents on the pane displays (tmux: border title, marks). */
  async title(session: TerminalSession): Promise<void> {
    if (session.goneReason) return;
    await this.displays.show(session, [...this.agentsOf(session.id)]);
  }
}
