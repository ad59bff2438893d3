// How hive_answer types an answer plan (live/answer.ts plans it): through the one send path
// (gate, audit), as every typed text.
import type { Crew } from "../live/crew.js";
import { answerAgent, type AnswerInput } from "./answer.js";
import type { TerminalCall, TerminalPort } from "./terminal-port.js";

export function answerThroughSend(crew: Crew, terminal: Pick<TerminalPort, "send">, input: AnswerInput, ctx: TerminalCall) {
  return answerAgent(crew, input, async (session, plan) => {
    // A digit is typed as text (it is no key name); arrows and Enter go as keys.
    if (plan.kind === "choice" && plan.keys.length === 1 && /^\d$/.test(plan.keys[0]!)) await terminal.send({ session: session.id, text: plan.keys[0]!, enter: false }, ctx);
    else if (plan.kind === "choice") await terminal.send({ session: session.id, keys: plan.keys, enter: false }, ctx);
    else await terminal.send({ session: session.id, text: plan.text, enter: true }, ctx);
  }, ctx);
}
