// The stdio server's answer to a 2026 client's `server/discover` probe, before the SDK loads.
//
// Why: a 2026 client may probe in a short-lived sibling process and waits for the answer
// before it goes on (issue 34 §5: within 150 ms of the process's start). Loading the MCP
// SDK, zod and the verb table takes most of a start (~180 ms of CPU of ~230, most of it
// compiling modules and building the SDK's zod schemas), and none of it is needed to say
// what the server is: its versions, capabilities, instructions and name. So the first line
// on stdin is looked at first: a plain discover (a known envelope, nothing else) is answered
// here, with the very result the SDK gives (a test compares the two), and everything after
// it goes to the SDK's serveStdio as if it had answered — the SDK's own state after its
// discover is "no era yet" too: a 2025 `initialize` next is served, a 2026 request pins.
// Anything else on the first line (initialize, a discover with other fields) is left to the
// SDK, untouched.
import { Readable } from "node:stream";
import type { McpEra, ToolFamily } from "../../config.js";
import { VERSION } from "../../version.js";

/** The server's instructions: which tool for which job, in a few lines a client keeps in context. */
export function instructionsFor(families: readonly ToolFamily[]): string {
  const lines = [
    "termhive: persistent terminal sessions (tmux) that survive restarts.",
    "terminal_run runs a command and waits: output, exit code, why it ended. No session: a throwaway shell.",
    "terminal_send types into interactive programs (vim, REPL prompts, keys like C-c) without waiting; then terminal_wait (until idle, a pattern or the end) or terminal_read (screen, new output, line ranges).",
    "Long output is folded; a marker names the terminal_read call for the hidden lines.",
  ];
  if (families.includes("hive")) lines.push("The hive runs agents (claude, codex…) in panes: agent_spawn or hive_layout, hive_message, hive_wait, hive_events.");
  return lines.join("\n");
}

const REVISION = "2026-07-28";
const META = "io.modelcontextprotocol/";
/** What the SDK's McpServer declares for termhive's registrations (server.ts; the e2e test compares). */
const CAPABILITIES = { logging: {}, tools: { listChanged: true }, resources: { subscribe: true, listChanged: true }, completions: {}, prompts: { listChanged: true } };
/** The first line is looked at only this far: a discover is a few hundred bytes. */
const FIRST_LINE_BYTES = 16 * 1024;

const isObject = (value: unknown): value is Record<string, unknown> => value !== null && typeof value === "object" && !Array.isArray(value);

/** The id of a discover this module may answer for the SDK: its envelope and nothing more. */
function plainDiscover(line: string): string | number | undefined {
  let message: unknown;
  try {
    message = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (!isObject(message) || message.jsonrpc !== "2.0" || message.method !== "server/discover") return undefined;
  const { id, params } = message;
  if (!(typeof id === "string" || (typeof id === "number" && Number.isInteger(id)))) return undefined;
  if (Object.keys(message).some((key) => !["jsonrpc", "id", "method", "params"].includes(key))) return undefined;
  if (!isObject(params) || Object.keys(params).some((key) => key !== "_meta") || !isObject(params._meta)) return undefined;
  const meta = params._meta;
  const info = meta[`${META}clientInfo`];
  const known = [`${META}protocolVersion`, `${META}clientCapabilities`, `${META}clientInfo`];
  if (Object.keys(meta).some((key) => !known.includes(key))) return undefined;
  if (meta[`${META}protocolVersion`] !== REVISION || !isObject(meta[`${META}clientCapabilities`])) return undefined;
  if (!isObject(info) || typeof info.name !== "string" || typeof info.version !== "string" || Object.keys(info).some((key) => key !== "name" && key !== "version")) return undefined;
  return id;
}

/** The SDK's answer to server/discover, as serveStdio writes it. */
export function discoverAnswer(id: string | number, families: readonly ToolFamily[]): string {
  const result = {
    supportedVersions: [REVISION],
    capabilities: CAPABILITIES,
    instructions: instructionsFor(families),
    resultType: "complete",
    ttlMs: 0,
    cacheScope: "private",
    _meta: { [`${META}serverInfo`]: { name: "termhive", version: VERSION } },
  };
  return JSON.stringify({ result, jsonrpc: "2.0", id }) + "\n";
}

/**
 * Waits for stdin's first line; answers it when it is a plain discover and this door serves
 * 2026 (TERMHIVE_MCP_ERA). What was read and not answered is put back on stdin for the SDK.
 * `input`: where the SDK reads the rest (stdin, or what was left of it when it had ended).
 */
export async function answerEarlyDiscover(stdin: Readable, write: (text: string) => void, era: McpEra, families: readonly ToolFamily[]): Promise<{ answered: boolean; input: Readable }> {
  if (era === "2025") return { answered: false, input: stdin };
  let ended = false;
  const chunks: Buffer[] = [];
  let length = 0;
  const head = await new Promise<Buffer>((resolve) => {
    const done = () => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.off("error", done);
      stdin.pause();
      resolve(Buffer.concat(chunks, length));
    };
    const onData = (chunk: Buffer | string) => {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : chunk;
      chunks.push(bytes);
      length += bytes.length;
      if (bytes.includes(0x0a) || length > FIRST_LINE_BYTES) done();
    };
    const onEnd = () => {
      ended = true;
      done();
    };
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    stdin.once("error", done);
  });
  const newline = head.indexOf(0x0a);

  const id = newline >= 0 ? plainDiscover(head.subarray(0, newline).toString("utf8").replace(/\r$/, "")) : undefined;
  const rest = id === undefined ? head : head.subarray(newline + 1);
  if (id !== undefined) write(discoverAnswer(id, families));
  // An ended stream takes nothing back: what is left of it is served from a stream of its own.
  const input = ended ? Readable.from(rest.length > 0 ? [rest] : []) : stdin;
  if (!ended && rest.length > 0) stdin.unshift(rest);
  return { answered: id !== undefined, input };
}
