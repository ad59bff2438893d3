// How verbs print: --json gives the service's result object (one JSON document on stdout);
// otherwise the same human text the MCP tools return. Either way, hints and errors are
// rewritten to name CLI commands (speak.ts), not MCP tool calls.
import { cliFailure } from "../verbs/errors.js";
import { cliSpeak } from "./speak.js";

export function print(json: boolean | undefined, result: object, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(result) + "\n" : human().replace(/\n?$/, "\n"));
}

/** The one line an error is shown as (a multi-line message is folded, never a stack). */
function errorLine(message: string, session?: string): string {
  return cliSpeak(message, session).replace(/\s*\n\s*/g, " ").trim();
}

/** Errors: the message (or {"error","code"} with --json) and the exit status of verbs/errors.ts. */
export function fail(json: boolean | undefined, error: unknown, session?: string): never {
  const failure = cliFailure(error);
  const { code, exit } = failure;
  const message = errorLine(failure.message, session);
  if (json) process.stdout.write(JSON.stringify({ error: message, code }) + "\n");
  else process.stderr.write(`termhive: ${message}\n`);
  process.exit(exit);
}
