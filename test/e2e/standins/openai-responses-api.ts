// A loopback stand-in of OpenAI's Responses API (POST /v1/responses, streamed as server-sent
// events), enough for the real Codex CLI to run turns offline: text answers, a turn that takes
// N seconds, and a shell tool call (which Codex asks approval for under its on-request policy).
// Every request is recorded: tests judge what Codex actually sent, not what termhive says.
// Scripting: agent-script.ts.
import type { ServerResponse } from "node:http";
import { scriptFor, sleep, type RecordedRequest } from "./agent-script.js";
import { AgentApiStandIn } from "./agent-api-stand-in.js";
import type { ReadRequest } from "./loopback-server.js";

type Item = { type?: string; role?: string; content?: unknown; output?: unknown; call_id?: string };

function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((c) => (c && typeof c === "object" && typeof (c as { text?: unknown }).text === "string" ? (c as { text: string }).text : "")).join("\n");
}

/** The newest user text, and whether a tool result came after it. */
function lastTurn(input: Item[]): { userText: string; toolResult: boolean; toolResultText: string; firstUser: string } {
  let toolResult = false;
  const outputs: string[] = [];
  const users = input.filter((i) => (i.type === "message" || i.type === undefined) && i.role === "user").map((i) => textOf(i.content));
  for (let i = input.length - 1; i >= 0; i--) {
    const item = input[i]!;
    if (item.type === "function_call_output" || item.type === "custom_tool_call_output") {
      toolResult = true;
      outputs.unshift(typeof item.output === "string" ? item.output : JSON.stringify(item.output ?? ""));
    }
    if ((item.type === "message" || item.type === undefined) && item.role === "user") {
      // Codex sends its environment context and AGENTS.md as user messages too; the typed text is the newest.
      return { userText: textOf(item.content), toolResult, toolResultText: outputs.join("\n"), firstUser: users[0] ?? "" };
    }
  }
  return { userText: "", toolResult, toolResultText: outputs.join("\n"), firstUser: users[0] ?? "" };
}

export class ResponsesStandIn extends AgentApiStandIn {
  protected readonly basePath = "/v1";
  /** The tools of the newest main request (the shell tool's name and schema vary by version). */
  lastTools: { type?: string; name?: string }[] = [];

  protected async answer(request: ReadRequest, res: ServerResponse): Promise<void> {
    const { method, path, raw } = request;
    if (method !== "POST" || !path.endsWith("/responses")) {
      this.recordOther(request);
      if (path.endsWith("/models")) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ object: "list", data: [], models: [] }));
      } else res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "not in the stand-in" } }));
      return;
    }
    const body = JSON.parse(raw) as { input?: Item[]; tools?: { type?: string; name?: string }[]; instructions?: string };
    const input = Array.isArray(body.input) ? body.input : [];
    const { userText, toolResult, toolResultText } = lastTurn(input);
    // Codex's title side thread (0.169) asks for a title of the user's prompt. (Tools are no
    // sign: the main thread of some models is sent without them.)
    const side = /^Generate a concise, single-line task title/.test(userText);
    if (!side && Array.isArray(body.tools)) this.lastTools = body.tools;
    const record: RecordedRequest = { at: Date.now(), path, userText, toolResult, toolResultText, side, body };
    this.requests.push(record);
    const turn = side ? { delayMs: 0, reply: { kind: "text" as const, text: "Stand-in title" } } : scriptFor(userText, toolResult);
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const id = `resp_${++this.seq}`;
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("response.created", { response: { id, object: "response", status: "in_progress", output: [] } });
    if (turn.delayMs > 0) await sleep(turn.delayMs);
    let item: Record<string, unknown>;
    if (turn.reply.kind === "text") {
      const msgId = `msg_${this.seq}`;
      send("response.output_item.added", { output_index: 0, item: { type: "message", id: msgId, role: "assistant", status: "in_progress", content: [] } });
      send("response.output_text.delta", { output_index: 0, content_index: 0, item_id: msgId, delta: turn.reply.text });
      item = { type: "message", id: msgId, role: "assistant", status: "completed", content: [{ type: "output_text", text: turn.reply.text, annotations: [] }] };
    } else {
      // Codex has no file-reading tool of its own: a read is `cat` with its shell tool.
      item = this.toolCall(turn.reply.kind === "read" ? `cat ${turn.reply.path}` : turn.reply.command);
      send("response.output_item.added", { output_index: 0, item });
    }
    send("response.output_item.done", { output_index: 0, item });
    send("response.completed", {
      response: { id, object: "response", status: "completed", output: [item], usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } },
    });
    res.end();
    record.answeredAt = Date.now();
  }

  /** A call of Codex's shell tool, in the form the newest request offered it. */
  private toolCall(command: string): Record<string, unknown> {
    const callId = `call_${this.seq}`;
    const names = this.lastTools.map((t) => t.name);
    if (names.includes("exec_command")) return { type: "function_call", id: `fc_${this.seq}`, call_id: callId, name: "exec_command", arguments: JSON.stringify({ cmd: command, sandbox_permissions: "require_escalated", justification: "the test asks for it" }) };
    if (names.includes("shell_command")) return { type: "function_call", id: `fc_${this.seq}`, call_id: callId, name: "shell_command", arguments: JSON.stringify({ command, sandbox_permissions: "require_escalated", justification: "the test asks for it" }) };
    return { type: "function_call", id: `fc_${this.seq}`, call_id: callId, name: "shell", arguments: JSON.stringify({ command: ["bash", "-lc", command], with_escalated_permissions: true, justification: "the test asks for it" }) };
  }
}
