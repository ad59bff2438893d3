// iTerm2 writes a divider line reading " Session Ended " under the last output of a session
// whose program ended and that stays open (PTYSession appendBrokenPipeMessage). It is
// iTerm2's, not the program's: it is taken out of every read, so it never joins the output.
import type { BufferContents } from "../../iterm2/client.js";

/** The divider: the message between runs of one divider character (images by default, read as blanks). */
const SESSION_ENDED = /^\s*(?:(\S)\1*)?\s?Session Ended\s?(?:\S+)?\s*$/;

/**
 * The buffer without iTerm2's " Session Ended " line when it is the last line with text
 * (nothing the program wrote comes after it); the cursor goes where the line began.
 */
export function withoutSessionEnded(buffer: BufferContents): BufferContents {
  let last = buffer.lines.length - 1;
  while (last >= 0 && buffer.lines[last]!.text.trim() === "") last--;
  if (last < 0 || !SESSION_ENDED.test(buffer.lines[last]!.text)) return buffer;
  const y = buffer.firstLine + last;
  if (buffer.cursor.y < y) return buffer; // the program's cursor is above it: not iTerm2's last line
  return { ...buffer, lines: buffer.lines.slice(0, last), cursor: { x: 0, y } };
}
