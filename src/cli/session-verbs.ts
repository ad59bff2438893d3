// The CLI door: one command per verb of the table that has a CLI form (ls, open, run, send,
// read, wait), run against the engine (a running server, else tmux directly).
import { Option, type Command } from "commander";
import { z } from "zod";
import { VERBS, type AnyVerb, type Services } from "../verbs/index.js";
import type { CliOption } from "../verbs/verb.js";
import { connectEngine, type Engine } from "./connect.js";
import { fail, print } from "./output.js";
import { cliSpeakResult } from "./speak.js";

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

function addOption(command: Command, option: CliOption): void {
  if (option instanceof Option) command.addOption(option);
  else if (option[2]) command.option(option[0], option[1], option[2]);
  else command.option(option[0], option[1]);
}

/** The CLI's hive commands (msg, status, inbox) write the store themselves; no table verb asks for the hive here. */
const noHive = (): never => {
  throw new Error("the hive is not reachable from this command");
};

function registerVerb(program: Command, verb: AnyVerb): void {
  const cli = verb.cli!;
  const command = program.command(cli.command).description(cli.description);
  for (const [syntax, description] of cli.args ?? []) command.argument(syntax, description);
  for (const option of cli.options ?? []) addOption(command, option);
  command.option("--json", "print JSON");
  if (cli.help) command.addHelpText("after", cli.help);
  // commander calls the action with the arguments, then the options, then the command.
  command.action(async (...params: unknown[]) => {
    const o = params.at(-2) as Record<string, unknown> & { json?: boolean };
    const given = cli.input(params.slice(0, -2) as never, o);
    const session = typeof given.session === "string" ? given.session : undefined;
    // Checked with the verb's schema here, whichever engine answers: a bad value is one clear error.
    let input: Record<string, unknown>;
    try {
      input = z.object(verb.input).parse(given);
    } catch (error) {
      return fail(o.json, error, session);
    }
    const ctx = { clientId: "cli" };
    let result = await withEngine(o.json, (e) => Promise.resolve(verb.run({ terminal: e.ops, hive: noHive } satisfies Services, input, ctx)), session);
    if (cli.speak) result = cliSpeakResult(result, session);
    print(o.json, result, () => (cli.text ?? verb.text)(result));
    if (cli.exitCode) process.exitCode = cli.exitCode(result);
  });
}

export function registerSessionVerbs(program: Command): void {
  for (const verb of VERBS) if (verb.cli) registerVerb(program, verb);
}
