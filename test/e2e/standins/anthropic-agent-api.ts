// A loopback stand-in of Anthropic's Messages API (POST /v1/messages, streamed as server-sent
// events), enough for the real Claude Code to run turns offline: text answers, a turn that
// takes N seconds, a Bash tool call (which Claude Code asks permission for in manual mode), and
// a Read tool call (which it asks about for a file outside the working directories). Every request is recorded: tests judge what Claude Code actually sent. Scripting:
// agent-script.ts. (model-reads' messages-api.ts serves Claude Code as an MCP client; this one
// drives it as an agent under the hive.)
import type { ServerResponse } from "node:http";
import { scriptFor, sleep, type RecordedRequest } from "./agent-script.js";
import { AgentApiStandIn } from "./agent-api-stand-in.js";
import type { ReadRequest } from "./loopback-server.js";

type Block = { type?: string; text?: string; content?: string | Block[] };
type Message = { role?: string; content?: string | Block[] };

/** A tool_result block's content as the text the model reads. */
const resultText = (b: Block): string => (typeof b.content === "string" ? b.content : (b.content ?? []).map((c) => c.text ?? "").join("\n"));

/** The newest user text, and whether (and what) the newest user message carries a tool result. */
function lastTurn(messages: Message[]): { userText: string; toolResult: boolean; toolResultText: string } {
  const last = [...messages].reverse().find((m) => m.role === "user");
  if (!last) return { userText: "", toolResult: false, toolResultText: "" };
  if (typeof last.content === "string") return { userText: last.content, toolResult: false, toolResultText: "" };
  const blocks = last.content ?? [];
  const toolResult = blocks.some((b) => b.type === "tool_result");
  // Claude Code adds <system-reminder> blocks; the typed text is the last plain text block.
  const texts = blocks.filter((b) => b.type === "text" && typeof b.text === "string" && !b.text.startsWith("<system-reminder>")).map((b) => b.text!);
  // After a tool result the conversation's first typed text is what the tool was asked for.
  const firstUser = messages.find((m) => m.role === "user");
  const firstText = typeof firstUser?.content === "string" ? firstUser.content : (firstUser?.content ?? []).filter((b) => b.type === "text" && !b.text?.startsWith("<system-reminder>")).map((b) => b.text).join("\n");
  const toolResultText = blocks.filter((b) => b.type === "tool_result").map(resultText).join("\n");
  return { userText: toolResult ? firstText : (texts.at(-1) ?? ""), toolResult, toolResultText };
}

export class MessagesAgentStandIn extends AgentApiStandIn {
  protected readonly basePath = "";

  protected async answer(request: ReadRequest, res: ServerResponse): Promise<void> {
    const { method, path, raw } = request;
    if (method !== "POST" || !/\/v1\/messages$/.test(path)) {
      this.recordOther(request);
      res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "not_found_error", message: "not in the stand-in" } }));
      return;
    }
    const body = JSON.parse(raw) as { messages?: Message[]; tools?: { name?: string }[]; stream?: boolean; model?: string };
    const { userText, toolResult, toolResultText } = lastTurn(body.messages ?? []);
    // The agent's turns offer its tools; title, quota and classifier requests do not.
    const side = !Array.isArray(body.tools) || body.tools.length === 0;
    const record: RecordedRequest = { at: Date.now(), path, userText, toolResult, toolResultText, side, body };
    this.requests.push(record);
    // "... fail 400 ..." answers the turn with that API error (Claude Code's StopFailure).
    const fail = side ? null : /\bfail (4\d\d)\b/.exec(userText);
    if (fail) {
      res.writeHead(Number(fail[1]), { "content-type": "application/json" }).end(JSON.stringify({ type: "error", error: { type: "invalid_request_error", message: "the stand-in was asked to fail" } }));
      record.answeredAt = Date.now();
      return;
    }
    const turn = side ? { delayMs: 0, reply: { kind: "text" as const, text: JSON.stringify({ title: "Stand-in", isNewTopic: false }) } } : scriptFor(userText, toolResult);
    if (turn.delayMs > 0) await sleep(turn.delayMs);
    const id = `msg_${++this.seq}`;
    const model = body.model ?? "claude-sonnet-4-5";
    const usage = { input_tokens: 10, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const reply = turn.reply;
    const block = reply.kind === "text"
      ? { type: "text", text: reply.text }
      : reply.kind === "read"
        ? { type: "tool_use", id: `toolu_${this.seq}`, name: "Read", input: { file_path: reply.path } }
        : { type: "tool_use", id: `toolu_${this.seq}`, name: "Bash", input: { command: reply.command, description: "Run what the test asked for" } };
    const stopReason = reply.kind === "text" ? "end_turn" : "tool_use";
    if (body.stream === false) {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ id, type: "message", role: "assistant", model, content: [block], stop_reason: stopReason, stop_sequence: null, usage }));
      record.answeredAt = Date.now();
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    send("message_start", { message: { id, type: "message", role: "assistant", model, content: [], stop_reason: null, stop_sequence: null, usage } });
    if (block.type === "text") {
      send("content_block_start", { index: 0, content_block: { type: "text", text: "" } });
      send("content_block_delta", { index: 0, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { index: 0, content_block: { ...block, input: {} } });
      send("content_block_delta", { index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { index: 0 });
    send("message_delta", { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
    send("message_stop", {});
    res.end();
    record.answeredAt = Date.now();
  }
}
