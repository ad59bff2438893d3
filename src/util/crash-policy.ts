// What a termhive server process does with an error nobody caught. One server holds many
// clients' terminals: a stray throw in one request's callback (a socket gone, a disk full)
// must not end every other client's work. So an uncaught exception or unhandled rejection is
// logged — one stderr line with where it came from, plus an audit entry — and the process
// keeps serving. It exits (status 70, one clear line) only when it cannot contain the error:
// an internal assertion of Node itself, or errors arriving so fast that the process is
// evidently stuck in a failing loop.
import { AuditLog } from "../audit.js";

/** Errors within STORM_WINDOW_MS before the process gives up: a loop, not a stray error. */
const STORM_LIMIT = 20;
const STORM_WINDOW_MS = 10_000;
/** EX_SOFTWARE: an internal software error. */
const EXIT_CODE = 70;

const FATAL_CODES = new Set(["ERR_INTERNAL_ASSERTION"]);

let installed = false;

function where(error: unknown): string {
  const stack = error instanceof Error ? (error.stack ?? "") : "";
  const frame = stack.split("\n").find((line) => /^\s+at /.test(line));
  return frame ? ` (${frame.trim()})` : "";
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as NodeJS.ErrnoException).code;
    return `${error.name}${code ? ` ${code}` : ""}: ${error.message}`;
  }
  return `non-error value thrown: ${String(error)}`;
}

/**
 * Installs the policy once per process. `label` names the process in the log line ("mcp",
 * "serve"); the audit log of `config.home` also gets each error with its stack.
 */
export function installCrashPolicy(label: string, config: { home: string; auditMaxBytes: number }): void {
  if (installed) return;
  installed = true;
  const audit = new AuditLog(config.home, config.auditMaxBytes);
  const recent: number[] = [];

  const handle = (kind: "uncaught exception" | "unhandled rejection", error: unknown) => {
    const now = Date.now();
    recent.push(now);
    while (recent.length > 0 && now - recent[0]! > STORM_WINDOW_MS) recent.shift();
    const fatal = (error instanceof Error && FATAL_CODES.has((error as NodeJS.ErrnoException).code ?? "")) || recent.length > STORM_LIMIT;
    try {
      audit.write({ event: "uncaught", kind, error: describe(error), stack: error instanceof Error ? error.stack : undefined, fatal });
      process.stderr.write(
        fatal
          ? `termhive ${label}: FATAL ${kind} it cannot contain${recent.length > STORM_LIMIT ? ` (${recent.length} errors in ${STORM_WINDOW_MS / 1000} s)` : ""}, exiting: ${describe(error)}${where(error)}\n`
          : `termhive ${label}: ${kind}, kept serving: ${describe(error)}${where(error)}; the full stack is in ${audit.path}\n`,
      );
    } catch {
      // stderr closed (the client went away): nothing left to tell
    }
    if (fatal) process.exit(EXIT_CODE);
  };

  process.on("uncaughtException", (error) => handle("uncaught exception", error));
  process.on("unhandledRejection", (reason) => handle("unhandled rejection", reason));
}
