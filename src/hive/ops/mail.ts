// hive_mail and an agent's own status in a server: the store-only verbs (store-only.ts) with
// what a process that follows the agent's pane adds — the message typed into the pane, and the
// status recorded through the pane's tracker (its border shows it, its listeners hear it).
import type { DeliveryResult } from "../../terminal/typing/delivery.js";
import type { Crew } from "../live/crew.js";
import { agentSeen } from "./agents.js";
import { mailInStore, type MailInput, type OwnStatusPath } from "./store-only.js";
import type { TerminalPort } from "./terminal-port.js";

export async function mailAndType(crew: Pick<Crew, "sync" | "hive" | "liveSession" | "typeMessage">, terminal: Pick<TerminalPort, "policy">, input: MailInput) {
  await crew.sync();
  const { message } = mailInStore(crew.hive, input);
  let typed: DeliveryResult | { delivered: false; note: string } | undefined;
  if (input.type_into_pane) {
    const agent = crew.hive.agents.get(input.to);
    try {
      // The same path as every typed text: size limit, gate when submitted, audit.
      const session = crew.liveSession(agent.sessionId);
      const text = `[message from ${message.from}] ${input.text}`;
      await terminal.policy.check(text, session, { enter: true });
      typed = await crew.typeMessage(session, text, true, "hive_mail");
    } catch (error) {
      typed = { delivered: false, note: (error as Error).message };
    }
  }
  return { message, ...(typed ? { typed } : {}) };
}

/** An agent's own report in a server: through the tracker when this process follows its pane. */
export function statusThroughPane(crew: Pick<Crew, "hive" | "registry" | "tracker">): OwnStatusPath {
  return {
    write: (name, apply) => {
      const s = crew.registry.byId(crew.hive.agents.get(name).sessionId);
      return s ? crew.tracker.record(apply, s) : apply().agent;
    },
    view: (agent) => agentSeen(crew.registry, agent),
  };
}
