/**
 * Cuts a line longer than `maxChars` in the middle: the start (what it is) and the end
 * (how it ended) stay, with a marker saying how much was cut. `end`: a line that says what
 * it is from its start on (a reducer's summary: a commit's hash and subject, then its date
 * and author) is cut at its end instead.
 */
export const DEFAULT_MAX_LINE_CHARS = 400;

/** How far from a line's end a fetch call that ends it is looked for (a huge line is not scanned). */
const CALL_MAX_CHARS = 300;
/** A terminal_read call ending a line: a reducer's closing line ("…; all: terminal_read {…}]"). */
const TRAILING_CALL = /terminal_read \{[^{}\n]*\}\]?$/;

export type CutAt = "middle" | "end";

export function cutOverlong(text: string, maxChars = DEFAULT_MAX_LINE_CHARS, at: CutAt = "middle"): string {
  if (text.length <= maxChars) return text;
  // The call that fetches what was left out stays whole (cut, it fetches nothing): only the
  // text before it is cut.
  const call = TRAILING_CALL.exec(text.slice(-CALL_MAX_CHARS));
  if (call) {
    const before = text.slice(0, text.length - call[0].length);
    return cut(before, Math.max(60, maxChars - call[0].length), at) + call[0];
  }
  return cut(text, maxChars, at);
}

function cut(text: string, maxChars: number, at: CutAt): string {
  if (at === "middle") return cutMiddle(text, maxChars);
  if (text.length <= maxChars) return text;
  return `${text.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
}

function cutMiddle(text: string, maxChars: number): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(2, maxChars - 30);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)} …[${cut} chars cut]… ${text.slice(text.length - tail)}`;
}
