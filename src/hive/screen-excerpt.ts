// The lines of a question as the screen shows it (a dialog's tool, command and choices; a
// shell's "Deploy now? [y/N]" with the output above it), for a notice read on a phone: the
// bottom non-blank rows, box edges dropped, credentials masked (the excerpt is kept in the
// event log and leaves the machine), cut to a few hundred characters.
import { redactCredentials } from "../safety/redact.js";

const MAX_LINES = 12;
const MAX_LINE_CHARS = 200;
const MAX_CHARS = 800;
/** Box-drawing edges and rules of TUI dialogs. */
const EDGES = /^[\s│┃║╭╮╰╯┌┐└┘─━═╌]+|[\s│┃║╭╮╰╯┌┐└┘─━═╌]+$/g;

export function questionExcerpt(screenLines: readonly string[]): string {
  const kept: string[] = [];
  for (let i = screenLines.length - 1; i >= 0 && kept.length < MAX_LINES; i--) {
    const line = screenLines[i]!.replace(/[\u0000-\u001f\u007f]/g, " ").replace(EDGES, "").replace(/\s+/g, " ");
    if (line === "") continue;
    kept.unshift(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line);
  }
  const text = redactCredentials(kept.join("\n"));
  return text.length > MAX_CHARS ? `…${text.slice(text.length - MAX_CHARS + 1)}` : text;
}
