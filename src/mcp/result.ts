// Shared shape of every tool result, and the one place that decides which errors are
// answers for the caller (their text says what to do) and which are bugs.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { UnsupportedByBackend } from "../backends/backend.js";
import { HiveError, HiveStoreError } from "../hive/index.js";
import { ToolError } from "../service/errors.js";

export function ok(structured: object, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured as Record<string, unknown> };
}

function isAnswer(error: unknown): boolean {
  return (
    error instanceof ToolError ||
    error instanceof HiveError ||
    error instanceof HiveStoreError ||
    error instanceof UnsupportedByBackend ||
    // Backend failures (tmux gone) carry a message written for the caller.
    (error instanceof Error && error.name === "TmuxGoneError")
  );
}

export async function guard(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    const message = isAnswer(error) ? (error as Error).message : `internal error: ${(error as Error).message}`;
    return { content: [{ type: "text", text: message }], isError: true };
  }
}
