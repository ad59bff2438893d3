// The hive as a command run in an agent's pane reaches it: the store alone (SQLite in
// TERMHIVE_HOME). No server, tmux, backend or gRPC: an agent's hooks run these commands every
// turn, with or without a termhive server. Servers follow the store, so what is written here
// is seen by every server on the same home.
import { Hive, HiveError } from "../hive/index.js";
import { mailInStore, readInbox, recordOwnStatus, type MailInput } from "../hive/ops/store-only.js";
import type { StoreHive } from "../verbs/verb.js";

export class PaneHive implements StoreHive {
  private opened: Hive | undefined;

  constructor(private readonly home: string) {}

  /** The store, opened on first use (a refused input never opens it). */
  private get hive(): Hive {
    return (this.opened ??= Hive.open({ home: this.home }));
  }

  /** The agent bound to this pane: TERMHIVE_AGENT when the hive knows it, else the agent of TERMHIVE_SESSION. */
  ownAgent(env: NodeJS.ProcessEnv = process.env): string | null {
    const named = env.TERMHIVE_AGENT;
    if (named && this.hive.agents.find(named)) return named;
    return env.TERMHIVE_SESSION ? (this.hive.agents.bySession(env.TERMHIVE_SESSION)[0]?.name ?? null) : null;
  }

  async mail(input: MailInput) {
    // Typing needs the pane, which only the server following it holds: refused before anything is left.
    if (input.type_into_pane) {
      throw new HiveError("invalid", "typing a message into a pane needs the termhive server that follows it: use the hive_mail tool with type_into_pane, or termhive send <agent> <text>");
    }
    return mailInStore(this.hive, input);
  }

  async inbox(input: { agent: string; all?: boolean; peek?: boolean; limit?: number }) {
    return readInbox(this.hive, input);
  }

  async setStatus(input: { agent: string; status: string; detail?: string }) {
    // This process follows no pane: the agent shows as a server shows one it does not hold.
    return recordOwnStatus(() => this.hive, input);
  }

  close(): void {
    this.opened?.close();
    this.opened = undefined;
  }
}
