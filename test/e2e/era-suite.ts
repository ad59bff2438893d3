// What both MCP eras are compared on, for every door (eras.test.ts: stdio; http-eras.test.ts:
// HTTP): the same calls, and the fields the protocol itself adds to a 2026 result.
import assert from "node:assert/strict";
import type { Client as Client2026 } from "@modelcontextprotocol/client";
import type { Client as Client2025 } from "@modelcontextprotocol/sdk/client/index.js";
import { RESULT_META } from "./harness.js";

export type AnyClient = Client2025 | Client2026;

/**
 * What the protocol itself adds to a 2026 result, never termhive's: the reserved
 * `io.modelcontextprotocol/*` `_meta` keys (server info) and the caching hints of a read.
 */
export const ERA_FIELDS = /^io\.modelcontextprotocol\/|^(ttlMs|cacheScope)$/;

export function withoutEraFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutEraFields);
  if (value === null || typeof value !== "object") return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (!ERA_FIELDS.test(key)) out[key] = withoutEraFields(v);
  // `_meta` holding only era keys is absent in a 2025 answer.
  if (out._meta && Object.keys(out._meta).length === 0) delete out._meta;
  return out;
}

/**
 * A value's shape: its keys and the types of its leaves, not their values. `hint` is left
 * out: advice that depends on the moment (a shell still running its rc files), not the era.
 */
export function shape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(shape);
  if (value === null || typeof value !== "object") return value === null ? "null" : typeof value;
  return Object.fromEntries(Object.entries(value).filter(([k]) => k !== "hint").sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, shape(v)]));
}

/** The same calls in either era: a run, an error, a resource read, a prompt. */
export async function exercise(client: AnyClient) {
  const tools = (await client.listTools()).tools;
  const run = await client.callTool({ name: "terminal_run", arguments: { command: "echo era-check" } });
  const opened = await client.callTool({ name: "terminal_open", arguments: {} });
  const unknownSession = await client.callTool({ name: "terminal_read", arguments: { session: "no-such-session" } });
  const unknownParam = await client.callTool({ name: "terminal_list", arguments: { bogus: 1 } });
  const sessions = await client.readResource({ uri: "termhive://sessions" });
  const prompts = (await client.listPrompts()).prompts;
  const prompt = await client.getPrompt({ name: "run-and-analyse", arguments: { command: "make test" } });
  return { tools, run, opened, unknownSession, unknownParam, sessions, prompts, prompt, instructions: client.getInstructions() };
}

type Exercised = Awaited<ReturnType<typeof exercise>>;

/** The tool list, instructions, prompts, result shapes and the texts a model reads are the same in both eras. */
export function sameInBothEras(old: Exercised, now: Exercised): void {
  assert.equal(old.tools.length, 31);
  assert.deepEqual(withoutEraFields(now.tools), old.tools);
  assert.ok(old.instructions?.includes("terminal_run"));
  assert.equal(now.instructions, old.instructions);
  assert.deepEqual(withoutEraFields(now.prompts), old.prompts);
  assert.deepEqual(withoutEraFields(now.prompt), old.prompt);
  for (const key of ["run", "opened", "unknownSession", "unknownParam", "sessions"] as const) {
    assert.deepEqual(shape(withoutEraFields(now[key])), shape(old[key]), key);
  }
  // The texts a model reads: the command's output, the errors' words.
  const text = (result: unknown) => (result as { content: { text: string }[] }).content.map((c) => c.text).join("\n");
  for (const r of [old.run, now.run]) assert.match(text(r), /^era-check\n\[exit 0/);
  for (const r of [old.unknownSession, now.unknownSession]) assert.match(text(r), /^unknown session "no-such-session"; live sessions: /);
  assert.equal(text(now.unknownParam), text(old.unknownParam));
  assert.match(text(old.unknownParam), /unknown parameter "bogus"/);
  for (const r of [old.unknownSession, old.unknownParam]) assert.equal((r as { isError?: boolean }).isError, true);
  assert.equal(((now.opened as { _meta: Record<string, { session?: string }> })._meta[RESULT_META]!.session ?? "").startsWith("th-"), true);
}
