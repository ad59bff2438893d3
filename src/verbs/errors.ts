// What every door makes of a thrown error, decided in one place. An error is either an answer
// (its message tells the caller what to do: a ToolError, a hive refusal, a backend that cannot
// do something, tmux gone) or a bug ("internal error: …").
import { ZodError } from "zod";
import { UnsupportedByBackend } from "../backends/backend.js";
import { InvalidLaunchError } from "../backends/launch.js";
import { TmuxGoneError } from "../backends/tmux/control.js";
import { HiveError, HiveStoreError } from "../hive/index.js";
import { ToolError } from "../service/errors.js";
import { RegexTimeoutError } from "../util/regex-worker.js";

export type ErrorCode = ToolError["code"] | "internal";

export interface Failure {
  code: ErrorCode;
  /** The text a caller sees: the answer itself, or "internal error: …". */
  message: string;
}

export function classify(error: unknown): Failure {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof ToolError) return { code: error.code, message };
  // An unknown agent/team/layout is not found; every other refusal (duplicate, cycle, empty cascade) is bad input.
  if (error instanceof HiveError) return { code: error.code === "unknown" ? "not_found" : "invalid", message };
  // A hive database that cannot be opened fails the hive verbs only; the terminal verbs go on.
  if (error instanceof HiveStoreError) return { code: "unavailable", message };
  if (error instanceof UnsupportedByBackend) return { code: "unsupported", message };
  // The tmux server went away under us (killed, crashed): the message says to retry.
  if (error instanceof TmuxGoneError) return { code: "unavailable", message };
  // A user regex that ran past its time bound (util/regex-worker.ts): the pattern is the cause.
  if (error instanceof RegexTimeoutError) return { code: "invalid", message };
  // A command, cwd or env the caller gave that no program can be started with (backends/launch.ts).
  if (error instanceof InvalidLaunchError) return { code: "invalid", message };
  if (error instanceof ZodError) return { code: "invalid", message: error.issues.map((i) => `${i.path.join(".") || "input"}: ${i.message}`).join("; ") };
  return { code: "internal", message: `internal error: ${message}` };
}

/** The MCP door: a tool result with isError. */
export function toolErrorResult(error: unknown): { content: { type: "text"; text: string }[]; isError: true } {
  return { content: [{ type: "text", text: classify(error).message }], isError: true };
}

// gRPC status numbers (fixed by the gRPC spec); grpc-js is not loaded by the MCP door for these.
export const GRPC_STATUS = { INVALID_ARGUMENT: 3, NOT_FOUND: 5, PERMISSION_DENIED: 7, FAILED_PRECONDITION: 9, UNIMPLEMENTED: 12, INTERNAL: 13, UNAVAILABLE: 14 } as const;

const TO_GRPC: Record<ErrorCode, number> = {
  not_found: GRPC_STATUS.NOT_FOUND,
  invalid: GRPC_STATUS.INVALID_ARGUMENT,
  busy: GRPC_STATUS.FAILED_PRECONDITION,
  dead: GRPC_STATUS.FAILED_PRECONDITION,
  refused: GRPC_STATUS.PERMISSION_DENIED,
  unavailable: GRPC_STATUS.UNAVAILABLE,
  unsupported: GRPC_STATUS.UNIMPLEMENTED,
  internal: GRPC_STATUS.INTERNAL,
};

/** The gRPC door: status code, details, and the service's code (busy and dead share a status). */
export function grpcFailure(error: unknown): { code: number; details: string; toolCode?: ToolError["code"] } {
  const { code, message } = classify(error);
  return { code: TO_GRPC[code], details: message, toolCode: code === "internal" ? undefined : code };
}

const TO_HTTP: Record<ErrorCode, number> = {
  not_found: 404,
  invalid: 400,
  busy: 409,
  dead: 409,
  refused: 403,
  unavailable: 503,
  unsupported: 501,
  internal: 500,
};

/** An HTTP door answering a verb outside MCP (where a tool error is a 200 with isError). */
export function httpFailure(error: unknown): { status: number; body: { error: string; code: ErrorCode } } {
  const { code, message } = classify(error);
  return { status: TO_HTTP[code], body: { error: message, code } };
}

/**
 * The CLI: the message (the door rewrites MCP-speak in it), the code for --json, and the exit
 * status: 2 for a hive refusal of bad arguments (a usage error), else 1.
 */
export function cliFailure(error: unknown): { message: string; code: ErrorCode; exit: 1 | 2 } {
  const { code, message: answer } = classify(error);
  // A bug's own message, without the "internal error" of the other doors; a schema's issues one per field.
  const message = code === "internal" ? (error instanceof Error ? error.message : String(error)) : answer;
  const usage = error instanceof HiveError && (error.code === "invalid" || error.code === "cycle");
  return { message, code, exit: usage ? 2 : 1 };
}
