// Text typed into a session is text. A terminal or a shell acts on control characters and
// escape sequences: an `ESC [ 2 0 1 ~` inside a bracketed paste ends it and whatever follows is
// read as keys; OSC 52 writes the clipboard; DEL and C-v edit the line the safety gate judged; a
// NUL cuts a C string short. So every path that types text (terminal_send, terminal_run, hive
// delivery, the dashboard's message box) first turns each such character into the visible
// symbol that stands for it (Unicode "Control Pictures": ESC → ␛, NUL → ␀, DEL → ␡), as
// terminals do with pasted control codes: the program receives the literal text, nothing
// acts on it, and nothing is lost. `keys` stays the one way to send a control key.
//
// Kept: tab (text in a paste, completion when typed) and line breaks; "\r\n", "\r" and "\n" are
// all one line break (a trailing one is the Enter key, see typing.ts `submission`).

declare const LITERAL: unique symbol;

/**
 * Text made literal (by literalText, once, where it enters termhive). What types text or gates
 * it takes this type, so a text is never converted twice and a raw one cannot reach the pane.
 */
export type LiteralText = string & { readonly [LITERAL]: true };

/** What a text became, and how many characters were replaced by their picture. */
export interface LiteralConversion {
  text: LiteralText;
  replaced: number;
}

/** The empty text (nothing to convert). */
export const EMPTY_TEXT = "" as LiteralText;

// C0 controls but tab and line breaks, DEL, and the C1 controls (U+0080–U+009F: U+009B is a
// one-character CSI to a terminal that reads 8-bit controls).
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]/g;

function picture(ch: string): string {
  const code = ch.charCodeAt(0);
  if (code < 0x20) return String.fromCharCode(0x2400 + code);
  if (code === 0x7f) return "\u2421";
  // A C1 control is ESC plus a letter in 7-bit form (U+009B = ESC [): shown that way.
  return "\u241b" + String.fromCharCode(code - 0x40);
}

export function literalText(text: string): LiteralConversion {
  let replaced = 0;
  const out = text.replace(/\r\n?/g, "\n").replace(CONTROL, (ch) => {
    replaced++;
    return picture(ch);
  });
  return { text: out as LiteralText, replaced };
}


/**
 * Free text a pane's process chose (its folder, its program's name, a command line) as a line
 * shown to a person or a model: every control character as its picture, tab and line breaks
 * too, so an escape sequence cannot act on the reader's terminal and one field stays one field.
 */
export function visibleText(text: string): string {
  return text.replace(/[\x00-\x1f\x7f\x80-\x9f]/g, picture);
}
