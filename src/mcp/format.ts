// The human-readable text of each tool result (structuredContent carries the same facts).

export function formatRun(r: {
  output: string; exit_code: number | null; complete: boolean; reason: string; duration_ms: number; tokens: number; raw_tokens: number; hint?: string; prompt?: string;
  session_name?: string; session_closed?: boolean;
}): string {
  const status = r.complete ? (r.exit_code === null ? "done" : `exit ${r.exit_code}`) : "still running";
  const where = r.session_name === undefined ? "" : ` · throwaway session ${r.session_name} ${r.session_closed ? "closed" : "kept"}`;
  const footer = `[${status} · ${r.reason}${r.prompt ? ` (${r.prompt})` : ""} · ${r.duration_ms} ms · ${r.tokens} tokens${r.raw_tokens > r.tokens ? ` of ${r.raw_tokens}` : ""}${where}]`;
  return [r.output, footer, r.hint].filter((part) => part !== undefined && part !== "").join("\n");
}

export function formatRead(r: { output: string; mode: string; tui: boolean; cursor?: { row: number; col: number }; line_count: number; tokens: number; note?: string; alive: boolean; exit_code?: number | null }): string {
  const facts = [`mode ${r.mode}`, r.tui ? "full-screen app" : undefined, r.cursor ? `cursor ${r.cursor.row + 1}:${r.cursor.col + 1}` : undefined, `${r.line_count} lines`, `${r.tokens} tokens`, r.alive ? undefined : `exited (${r.exit_code})`]
    .filter(Boolean)
    .join(" · ");
  return [r.output, `[${facts}]`, r.note].filter((part) => part !== undefined && part !== "").join("\n");
}

export function formatWait(r: { matched: boolean; reason: string; output: string; match?: string; exit_code?: number | null; duration_ms: number; tui?: true }): string {
  const screen = r.tui ? " · full-screen app: output is its screen" : "";
  const head = r.matched ? `[${r.reason}${r.match !== undefined ? `: ${JSON.stringify(r.match)}` : ""}${r.exit_code !== undefined ? ` · exit ${r.exit_code}` : ""} · ${r.duration_ms} ms${screen}]` : `[timeout after ${r.duration_ms} ms: not matched${screen}]`;
  return [r.output, head].filter(Boolean).join("\n");
}

export function formatJson(value: unknown): string {
  return JSON.stringify(value, null, 2);
}
