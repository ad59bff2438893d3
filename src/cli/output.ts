// How verbs print: --json gives the service's result object verbatim (one JSON document on
// stdout); otherwise the same human text the MCP tools return.
import { ToolError } from "../service/errors.js";

export function print(json: boolean | undefined, result: object, human: () => string): void {
  process.stdout.write(json ? JSON.stringify(result) + "\n" : human().replace(/\n?$/, "\n"));
}

/** Errors: a ToolError's message (or {"error","code"} with --json) and exit status 1. */
export function fail(json: boolean | undefined, error: unknown): never {
  const message = error instanceof Error ? error.message : String(error);
  const code = error instanceof ToolError ? error.code : "internal";
  if (json) process.stdout.write(JSON.stringify({ error: message, code }) + "\n");
  else process.stderr.write(`termhive: ${message}\n`);
  process.exit(1);
}
