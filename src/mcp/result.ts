// Shape of every tool result; which errors are answers and which are bugs is verbs/errors.ts's call.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { toolErrorResult } from "../verbs/errors.js";

export function ok(structured: object, text: string): CallToolResult {
  return { content: [{ type: "text", text }], structuredContent: structured as Record<string, unknown> };
}

export async function guard(work: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await work();
  } catch (error) {
    return toolErrorResult(error);
  }
}
