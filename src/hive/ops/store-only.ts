// The hive verbs that need the store alone: mail, inbox and an agent's own status. The in-pane
// `termhive msg / inbox / status` (cli/pane-hive.ts) runs them with no server, tmux or backend
// loaded, and a server runs the same ones with its live part on top (mail.ts types into the
// pane; own status goes through the tracker of a pane the server follows). This file imports
// the store and nothing live: the pane CLI's start-up pays for what is imported here.
import { agentView } from "../rules/agent-view.js";
import { parseStatusArgs, type AgentRecord, type Hive } from "../index.js";

export interface MailInput {
  to: string;
  text: string;
  from?: string;
  type_into_pane?: boolean;
}

export function mailInStore(hive: Hive, input: MailInput) {
  return { message: hive.mailbox.send(input.from ?? "orchestrator", input.to, input.text) };
}

export function readInbox(hive: Hive, input: { agent: string; all?: boolean; peek?: boolean; limit?: number }) {
  const messages = hive.mailbox.read(input.agent, { unreadOnly: !input.all, markRead: !input.peek, limit: input.limit });
  return { agent: input.agent, messages, unread_left: hive.mailbox.unreadCount(input.agent) };
}

export type AgentView = ReturnType<typeof agentView>;

/** How this process writes an agent's own report and shows the agent afterwards. */
export interface OwnStatusPath {
  /** Writes the report (`apply`); undefined: the write was refused and the stored agent stands. */
  write(agent: string, apply: () => { agent: AgentRecord; changed: boolean }): AgentRecord | undefined;
  view(agent: AgentRecord): AgentView;
}

/** A process that follows no pane: the report goes straight to the store, the agent shows as not alive here. */
export const STORE_ONLY: OwnStatusPath = {
  write: (_agent, apply) => apply().agent,
  view: (agent) => agentView(agent),
};

/** `store` is opened only once the report is read: a refused report leaves no store behind. */
export function recordOwnStatus(store: () => Hive, input: { agent: string; status: string; detail?: string }, path: OwnStatusPath = STORE_ONLY) {
  const report = parseStatusArgs([input.status, ...(input.detail ? [input.detail] : [])]);
  const hive = store();
  const recorded = path.write(input.agent, () => hive.applySelfStatus(input.agent, report));
  return { agent: path.view(recorded ?? hive.agents.get(input.agent)) };
}
