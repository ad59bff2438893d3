// Shape of every tool result; which errors are answers and which are bugs is verbs/errors.ts's call.
import type { CallToolResult } from "@modelcontextprotocol/server";
import { toolErrorResult } from "../verbs/errors.js";

/**
 * _meta key of the verb's whole result (every field the gRPC and CLI doors get), for programs
 * that drive termhive over MCP. Clients do not show _meta to a model; what a model reads is the
 * text, or structuredContent where a tool declares an outputSchema (Claude Code shows that
 * instead of the text), so structuredContent stays as lean as the text.
 */
export const RESULT_META = "termhive/result";

export function ok(result: object, text: string, structured?: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: "text", text }],
    ...(structured ? { structuredContent: structured } : {}),
    _meta: { [RESULT_META]: result },
  };
}

/** The verb's whole result from a tool result (test and bench clients read their facts here). */
export function resultFacts(result: { _meta?: Record<string, unknown>; structuredContent?: Record<string, unknown> }): Record<string, any> {
  return (result._meta?.[RESULT_META] ?? result.structuredContent ?? {}) as Record<string, any>;
}

export async function guard<T extends object = CallToolResult>(work: () => Promise<T>): Promise<T | CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolErrorResult(error);
  }
}
