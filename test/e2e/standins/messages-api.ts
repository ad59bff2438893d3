// A loopback stand-in of the Anthropic Messages API for running a real client (Claude Code)
// offline. The test scripts the model: each request that carries the conversation gets the next
// scripted turn (a tool_use call, or a final text). Every request is recorded as sent, so a test
// reads exactly what the client gave its model: the tool list, the system prompt, and each
// tool_result block.
import type { ServerResponse } from "node:http";
import { LoopbackServer } from "./loopback-server.js";

/** One turn of the scripted model: call a tool, or answer with text and end. */
export type ModelTurn = { tool: string; input: Record<string, unknown> } | { text: string };

export interface MessagesRequest {
  model: string;
  system?: unknown;
  tools?: { name: string; description?: string; input_schema?: unknown; [key: string]: unknown }[];
  messages: { role: "user" | "assistant"; content: string | ContentBlock[] }[];
  stream?: boolean;
  [key: string]: unknown;
}

export type ContentBlock = { type: string; [key: string]: unknown };

export interface ToolResultSeen {
  tool_use_id: string;
  /** The tool the scripted model called for this id. */
  tool: string;
  /** The result's content as the client sent it (a string or blocks). */
  content: unknown;
  /** Its text, joined: what the model reads. */
  text: string;
  is_error: boolean;
}

export interface MessagesApi {
  url: string;
  /** Every request body, in order. */
  requests: MessagesRequest[];
  /** The tool_result blocks the client sent back, in call order (each once). */
  results: ToolResultSeen[];
  close(): Promise<void>;
}

/**
 * `script` is asked for the next turn of a conversation request (one that carries tools):
 * `turn` counts the scripted turns so far. Other requests (a client's side calls: titles,
 * summaries) get a short text answer.
 */
export async function startMessagesApi(script: (turn: number, request: MessagesRequest) => ModelTurn): Promise<MessagesApi> {
  const requests: MessagesRequest[] = [];
  const results: ToolResultSeen[] = [];
  const called = new Map<string, string>();
  let turn = 0;
  let ids = 0;

  const collectResults = (request: MessagesRequest) => {
    for (const message of request.messages) {
      if (message.role !== "user" || typeof message.content === "string") continue;
      for (const block of message.content) {
        if (block.type !== "tool_result") continue;
        const id = String(block.tool_use_id);
        if (!called.has(id) || results.some((r) => r.tool_use_id === id)) continue;
        results.push({ tool_use_id: id, tool: called.get(id)!, content: block.content, text: textOf(block.content), is_error: block.is_error === true });
      }
    }
  };

  const answer = (request: MessagesRequest): ContentBlock[] => {
    const conversation = (request.tools?.length ?? 0) > 0;
    if (!conversation) return [{ type: "text", text: "ok" }];
    const next = script(turn++, request);
    if ("text" in next) return [{ type: "text", text: next.text }];
    const id = `toolu_${String(++ids).padStart(4, "0")}`;
    called.set(id, next.tool);
    return [{ type: "tool_use", id, name: next.tool, input: next.input }];
  };

  const server = new LoopbackServer(({ method, path, raw }, res) => {
    if (method !== "POST" || !path.endsWith("/v1/messages")) {
      // count_tokens and anything else: a harmless answer.
      res.writeHead(path.endsWith("/count_tokens") ? 200 : 404, { "content-type": "application/json" });
      res.end(JSON.stringify(path.endsWith("/count_tokens") ? { input_tokens: 1 } : { type: "error", error: { type: "not_found_error", message: path } }));
      return;
    }
    let request: MessagesRequest;
    try {
      request = JSON.parse(raw) as MessagesRequest;
    } catch {
      res.writeHead(400).end();
      return;
    }
    requests.push(request);
    collectResults(request);
    const content = answer(request);
    const stop = content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn";
    if (request.stream) sse(res, request.model, content, stop);
    else {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(message(request.model, content, stop)));
    }
  });
  await server.start();
  return { url: server.url, requests, results, close: () => server.stop() };
}

let messageIds = 0;

function message(model: string, content: ContentBlock[], stop: string) {
  return {
    id: `msg_${++messageIds}`, type: "message", role: "assistant", model, content, stop_reason: stop, stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 },
  };
}

/** The streamed form: message_start, one start/delta/stop per block, message_delta, message_stop. */
function sse(res: ServerResponse, model: string, content: ContentBlock[], stop: string): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  const start = message(model, [], stop);
  send("message_start", { type: "message_start", message: { ...start, stop_reason: null, usage: { ...start.usage, output_tokens: 1 } } });
  content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { type: "content_block_start", index, content_block: { type: "text", text: "" } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "text_delta", text: block.text } });
    } else {
      send("content_block_start", { type: "content_block_start", index, content_block: { ...block, input: {} } });
      send("content_block_delta", { type: "content_block_delta", index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { type: "content_block_stop", index });
  });
  send("message_delta", { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 10 } });
  send("message_stop", { type: "message_stop" });
  res.end();
}

/** A tool_result's content as the text a model reads. */
export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content.map((b: ContentBlock) => (b.type === "text" ? String(b.text) : JSON.stringify(b))).join("\n");
}
