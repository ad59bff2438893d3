// Text to and from iTerm2's API, which deals in strings and screen lines rather than bytes.
import type { BufferContents } from "../../iterm2/client.js";

/** `text` in pieces of at most `max` UTF-16 units, never splitting a surrogate pair. */
export function* textChunks(text: string, max: number): Generator<string> {
  for (let i = 0; i < text.length; ) {
    let end = Math.min(text.length, i + max);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end--;
    yield text.slice(i, end);
    i = end;
  }
}

/** A buffer's lines as a terminal history: soft-wrapped lines joined, no trailing blank lines. */
export function historyText(buffer: BufferContents): string {
  let history = "";
  buffer.lines.forEach((line, i) => {
    history += line.text + (line.soft || i === buffer.lines.length - 1 ? "" : "\r\n");
  });
  return history.replace(/(\r\n)+$/, "");
}
