// `termhive answer <agent> <answer…> [--question <digest>]`: hive_answer from a shell (a person
// answering from a phone's ssh, a script). Through a running `termhive serve` when there is one
// (its gRPC HiveAnswer), else in-process against tmux and the hive store, as the other verbs.
import type { Command } from "commander";
import { z } from "zod";
import { existsSync } from "node:fs";
import { loadConfig } from "../config.js";
import { TermhiveClient } from "../grpc/client.js";
import { grpcSocketPath, socketIsLive } from "../grpc/socket.js";
import { composeRoot } from "../service/root.js";
import hiveAnswer, { answerText } from "../verbs/hive-answer.js";
import type { AnswerResult } from "../hive/ops/answer.js";
import { fail, print } from "./output.js";
import { callerPane } from "../util/caller-pane.js";

async function answer(input: z.infer<z.ZodObject<typeof hiveAnswer.input>>): Promise<AnswerResult> {
  const config = loadConfig();
  const socket = grpcSocketPath(config.home);
  if (existsSync(socket) && (await socketIsLive(socket, 500))) {
    const pane = callerPane();
    const client = new TermhiveClient({ socketPath: socket, clientName: "cli", ...(pane ? { pane } : {}) });
    try {
      return (await client.hiveAnswer(input)) as unknown as AnswerResult;
    } finally {
      client.closeConnection();
    }
  }
  const root = composeRoot(config);
  try {
    const pane = callerPane();
    return await root.hive.answer(input, { clientId: "cli", ...(pane ? { pane } : {}) });
  } finally {
    await root.dispose().catch(() => undefined); // the answer (or its error) is what to report
  }
}

export function registerAnswer(program: Command): void {
  program
    .command("answer <agent> <answer...>")
    .description("answer the question an agent shows: a choice's number or label, yes/no, or text")
    .option("-q, --question <digest>", "the question's digest (from `termhive agents`, agent_list, hive_events, a notification): refused if the screen now asks another")
    .option("--json", "print JSON")
    .addHelpText("after", ["", "Examples:", "  termhive answer backend 1                 pick choice 1 of backend's dialog", "  termhive answer backend yes -q 3f2a9c01b7de   only if that is still the question"].join("\n"))
    .action(async (agent: string, words: string[], o: { question?: string; json?: boolean }) => {
      let input;
      try {
        input = z.object(hiveAnswer.input).parse({ agent, answer: words.join(" "), question: o.question });
      } catch (error) {
        return fail(o.json, error);
      }
      try {
        const result = await answer(input);
        print(o.json, result, () => answerText(result));
        // Typed, but the question stayed on screen: the caller must look (124, as a wait that timed out).
        if (!result.gone) process.exitCode = 124;
      } catch (error) {
        fail(o.json, error);
      }
    });
}
