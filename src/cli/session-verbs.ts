// The CLI door: one command per verb of the table that has a CLI form (ls, open, run, send,
// read, wait, agents), run against the engine (a running server, else tmux directly).
import type { Command } from "commander";
import { z } from "zod";
import { VERBS, type AnyVerb, type Services } from "../verbs/index.js";
import { connectEngine, type Engine } from "./connect.js";
import { fail, print } from "./output.js";
import { cliSpeakResult } from "./speak.js";
import { actionParams, commandFor } from "../verbs/verb-command.js";

/** Runs a verb against the engine and always releases it (the direct service detaches from tmux). */
export async function withEngine<T>(json: boolean | undefined, work: (e: Engine) => Promise<T>, session?: string): Promise<T> {
  const progress = !json && process.stderr.isTTY ? (_ms: number, message: string) => process.stderr.write(`\r\x1b[K${message}`) : undefined;
  let engine: Engine | undefined;
  try {
    engine = await connectEngine({ onProgress: progress });
    const result = await work(engine);
    if (progress) process.stderr.write("\r\x1b[K");
    return result;
  } catch (error) {
    await engine?.done().catch(() => undefined); // the call's own error is the one to report
    return fail(json, error, session);
  } finally {
    await engine?.done().catch(() => undefined); // released already, or the backend is gone: nothing left to do
  }
}

const noHive = (): never => {
  throw new Error("the hive is not reachable from this command");
};

/**
 * A verb against the engine. A hive verb goes to a running server as its rpc: the server holds
 * the live hive (statuses, questions on screen), which a second in-process hive would only
 * guess at. The in-pane commands (msg, status, inbox) have their own door (pane-verbs.ts).
 */
function runOn(e: Engine, verb: AnyVerb, input: Record<string, unknown>): Promise<unknown> {
  if (verb.family === "hive" && e.client) {
    const method = (e.client as unknown as Record<string, (input: object) => Promise<unknown>>)[verb.grpc.charAt(0).toLowerCase() + verb.grpc.slice(1)]!;
    return method.call(e.client, input);
  }
  return Promise.resolve(verb.run({ terminal: e.ops, hive: e.hive ?? noHive } satisfies Services, input, { clientId: "cli" }));
}

function registerVerb(program: Command, verb: AnyVerb): void {
  const cli = verb.cli!;
  commandFor(program, cli).action(async (...params: unknown[]) => {
    const { args, options: o } = actionParams(params);
    const given = cli.input(args as never, o);
    const session = typeof given.session === "string" ? given.session : undefined;
    // Checked with the verb's schema here, whichever engine answers: a bad value is one clear error.
    let input: Record<string, unknown>;
    try {
      input = z.object(verb.input).parse(given);
    } catch (error) {
      return fail(o.json, error, session);
    }
    let result = (await withEngine(o.json, (e) => runOn(e, verb, input), session)) as Parameters<typeof verb.text>[0];
    if (cli.speak) result = cliSpeakResult(result, session);
    print(o.json, result, () => (cli.text ?? verb.text)(result));
    if (cli.exitCode) process.exitCode = cli.exitCode(result);
  });
}

export function registerSessionVerbs(program: Command): void {
  for (const verb of VERBS) if (verb.cli && !verb.cli.inPane) registerVerb(program, verb);
}
