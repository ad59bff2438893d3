// PLACEHOLDER owned by the output work (issue 3): replaced by clean/fold/reducers/tokens.
// The signature below is the contract the service relies on.

export interface RenderOptions {
  /** Command line that produced the text, when known (selects a reducer). */
  command?: string;
  /** Fold budget; default 2000. */
  maxTokens?: number;
  /** false: clean only, no per-command reducer. Default true. */
  reduce?: boolean;
  /** true: return the text untouched (escape codes kept), only bounded. */
  raw?: boolean;
  /** Keep only lines matching this regex (already validated by the caller), with `context` lines around. */
  filter?: RegExp;
  context?: number;
  /** Absolute 1-based transcript line number of the text's first line (text split on "\n"). */
  firstLine: number;
  /** Session id or name, used in the fetch call written into fold markers. */
  session: string;
  /** Values that must never appear in the result. */
  secrets?: string[];
}

export interface Rendered {
  text: string;
  tokens: number;
  raw_tokens: number;
  /** Lines hidden by folding or filtering (0 when the text came back whole). */
  folded_lines: number;
  /** Name of the reducer applied, if any. */
  reducer?: string;
}

const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[@-Z\\-_]/g;

export function renderOutput(text: string, opts: RenderOptions): Rendered {
  let out = opts.raw ? text : text.replace(ESCAPES, "").replace(/\r\n/g, "\n").replace(/[^\n]*\r(?!\n)/g, "");
  for (const secret of opts.secrets ?? []) if (secret) out = out.split(secret).join("***");
  const lines = out.split("\n");
  const approxTokens = Math.ceil(out.length / 4);
  const max = opts.maxTokens ?? 2000;
  let folded = 0;
  if (approxTokens > max && lines.length > 60) {
    const head = lines.slice(0, 20);
    const tail = lines.slice(-30);
    folded = lines.length - 50;
    const from = opts.firstLine + 20;
    const to = opts.firstLine + lines.length - 31;
    out = [...head, `… ${folded} lines folded: terminal_read {"session":"${opts.session}","mode":"lines","from_line":${from},"to_line":${to}}`, ...tail].join("\n");
  }
  return { text: out, tokens: Math.ceil(out.length / 4), raw_tokens: approxTokens, folded_lines: folded };
}
