// Agent status on iTerm2's tabs: when termhive's panes are on screen in iTerm2 (through its
// tmux integration, or as the iTerm2 backend's own sessions), each agent's status colours its
// tab and sets its badge, hive_focus brings its pane to the front, and an agent that starts
// waiting for input raises a macOS notification. Off (and silent) where iTerm2 is not reachable;
// `termhive doctor` says why. The crew's iTerm2 display (hive/displays/iterm2-tabs.ts)
// drives it.
import type { Iterm2Client } from "./client.js";

/**
 * What this module needs of termhive's service and hive, described here rather than imported:
 * hive/live/ drives this module and backends/ uses its client, so importing terminal/ or hive/
 * would make the folders a cycle.
 */
export interface AgentStatusView {
  name: string;
  sessionId: string;
  /** starting | working | idle | waiting_for_input | error | exited */
  status: string;
  statusDetail: string | null;
}

export interface DecoratedService {
  readonly backend: { readonly kind: string };
  readonly registry: { all(): readonly { readonly id: string; readonly paneId: string }[] };
}

type Rgb = [number, number, number];

/** Tab colours by status: calm for idle, loud for what needs a person. */
const STATUS_COLOURS: Record<string, Rgb> = {
  starting: [0.6, 0.6, 0.6],
  working: [0.2, 0.45, 0.9],
  idle: [0.2, 0.7, 0.3],
  waiting_for_input: [0.95, 0.6, 0.1],
  error: [0.85, 0.15, 0.15],
  exited: [0.35, 0.35, 0.35],
};

function tabColour([r, g, b]: Rgb): Record<string, unknown> {
  return { "Red Component": r, "Green Component": g, "Blue Component": b, "Alpha Component": 1, "Color Space": "sRGB" };
}

export class Iterm2Decorations {
  private client: Promise<Iterm2Client> | null = null;
  /** termhive pane id ("%12") → iTerm2 session id; rebuilt when iTerm2's sessions change. */
  private panes: Promise<Map<string, string>> | null = null;
  private readonly lastStatus = new Map<string, string>();
  private stopped = false;

  constructor(private readonly service: DecoratedService) {}

  private connect(): Promise<Iterm2Client> {
    if (!this.client) {
      // The client (ws, protobufjs) is loaded on the first status change, never at start-up.
      this.client = import("./client.js").then(({ Iterm2Client }) => Iterm2Client.connect()).then(async (client) => {
        const forget = () => void (this.panes = null);
        await client.subscribe("NOTIFY_ON_NEW_SESSION", null, forget);
        await client.subscribe("NOTIFY_ON_TERMINATE_SESSION", null, forget);
        client.events.once("close", () => {
          this.client = null;
          this.panes = null;
        });
        return client;
      });
      // A failed connection is retried at the next change, not kept.
      this.client.catch(() => (this.client = null));
    }
    return this.client;
  }

  /** Which iTerm2 session shows a termhive pane: itself on the iTerm2 backend, else by tmuxWindowPane. */
  private async sessionFor(paneId: string): Promise<string | undefined> {
    if (this.service.backend.kind === "iterm2") return paneId;
    const client = await this.connect();
    this.panes ??= (async () => {
      const map = new Map<string, string>();
      for (const s of await client.listSessions()) {
        const [pane] = await client.getVariables({ session: s.sessionId }, ["tmuxWindowPane"]).catch(() => [null]);
        // iTerm2 reports the tmux pane's number; termhive names panes by tmux's "%N" id.
        if (pane !== null && pane !== undefined && pane !== "") map.set(`%${String(pane).replace(/^%/, "")}`, s.sessionId);
      }
      return map;
    })();
    this.panes.catch(() => (this.panes = null));
    return (await this.panes).get(paneId);
  }

  /** An agent's status changed: colour and badge its tab, notify when it starts waiting. */
  async show(agent: AgentStatusView): Promise<void> {
    if (this.stopped) return;
    const paneId = this.service.registry.all().find((s) => s.id === agent.sessionId)?.paneId;
    if (!paneId) return;
    const session = await this.sessionFor(paneId);
    if (!session) return;
    const client = await this.connect();
    const badge = `${agent.name}: ${agent.status.replace(/_/g, " ")}${agent.statusDetail ? `\n${agent.statusDetail}` : ""}`;
    await client.setProfileProperties(session, { "Use Tab Color": true, "Tab Color": tabColour(STATUS_COLOURS[agent.status] ?? STATUS_COLOURS.starting!), "Badge Text": badge });
    const before = this.lastStatus.get(agent.name);
    this.lastStatus.set(agent.name, agent.status);
    if (agent.status === "waiting_for_input" && before !== "waiting_for_input") {
      // OSC 9 is iTerm2's "post a notification" sequence; injected, it never reaches the agent.
      const text = `termhive: ${agent.name} is waiting for input${agent.statusDetail ? ` (${agent.statusDetail})` : ""}`.replace(/[\x00-\x1f\x7f]/g, " ");
      await client.inject(session, Buffer.from(`\x1b]9;${text}\x07`, "utf8"));
    }
  }

  /** hive_focus: brings the pane's iTerm2 window, tab and pane to the front. */
  async focus(paneId: string): Promise<void> {
    if (this.stopped || this.service.backend.kind === "iterm2") return; // the backend's own focus did it
    const session = await this.sessionFor(paneId);
    if (session) await (await this.connect()).activate(session);
  }

  dispose(): void {
    this.stopped = true;
    void this.client?.then((c) => c.close(), () => undefined);
  }
}
