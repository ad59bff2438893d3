/**
 * Cuts a line longer than `maxChars` in the middle: the start (what it is) and the end
 * (how it ended) stay, with a marker saying how much was cut.
 */
export const DEFAULT_MAX_LINE_CHARS = 400;

export function cutOverlong(text: string, maxChars = DEFAULT_MAX_LINE_CHARS): string {
  if (text.length <= maxChars) return text;
  const keep = Math.max(2, maxChars - 30);
  const head = Math.ceil(keep * 0.6);
  const tail = keep - head;
  const cut = text.length - head - tail;
  return `${text.slice(0, head)} …[${cut} chars cut]… ${text.slice(text.length - tail)}`;
}
