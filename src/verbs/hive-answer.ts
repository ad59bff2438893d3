import { z } from "zod";
import type { AnswerResult } from "../hive/ops/answer.js";
import { name } from "./schemas/hive.js";
import { RUNS, defineVerb } from "./verb.js";

/** The CLI and the MCP text say the same thing. */
export function answerText(r: AnswerResult): string {
  const what =
    "hook" in r.typed ? `${r.typed.hook === "allow" ? "allowed" : "denied"} through ${r.agent}'s permission hook (nothing typed)`
    : r.choice !== null ? `chose ${JSON.stringify(r.choice)}` : `typed ${JSON.stringify("text" in r.typed ? r.typed.text : "")} + Enter`;
  const after = r.gone
    ? r.now.question
      ? `the question is gone; another one is up now (${r.now.question}): ${r.now.detail}`
      : `the question is gone; ${r.agent} is ${r.now.status} now (${r.now.detail})`
    : "hook" in r.typed ? `the hook did not take the decision within 5 s: check the pane (terminal_read ${r.agent})`
    : `the question is still on screen after 5 s: check the pane (terminal_read ${r.agent})`;
  return `${r.agent}: answered ${r.question} (${r.asked}): ${what}; ${after}`;
}

export default defineVerb({
  name: "hive_answer",
  title: "Answer an agent's question",
  description:
    "Answer an agent's on-screen question: choice number or label, yes/no, or text. question: agent_list's digest; refused (nothing typed) if the screen asks another.",
  input: {
    agent: name,
    answer: z.string().min(1).max(4096),
    // The digest agent_list, hive_events and notifications carry (12 hex characters).
    question: z.string().regex(/^[0-9a-f]{12}$/, "a question digest: 12 hex characters, from agent_list or hive_events").optional(),
  },
  family: "hive",
  annotations: RUNS,
  run: (s, input, ctx) => s.hive().answer(input, ctx),
  structured: {
    schema: { agent: z.string(), question: z.string(), choice: z.string().nullable(), gone: z.boolean(), now_status: z.string(), now_question: z.string().nullable() },
    of: (r) => ({ agent: r.agent, question: r.question, choice: r.choice, gone: r.gone, now_status: r.now.status, now_question: r.now.question }),
  },
  text: answerText,
  grpc: "HiveAnswer",
  wire: {
    decode: (r) => {
      // HiveTyped is a oneof: the one set is the form it was (keys [] decodes as absent).
      if (r.typed?.hook !== undefined) r.typed = { hook: r.typed.hook };
      else if (r.typed?.text !== undefined) r.typed = { text: r.typed.text };
      else if (r.typed) r.typed = { keys: r.typed.keys ?? [] };
      return r;
    },
  },
  nullable: { choice: true, "now.question": true },
});
