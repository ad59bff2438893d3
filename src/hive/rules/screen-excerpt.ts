// The lines of a question as the screen shows it (a dialog's tool, command and choices; a
// shell's "Deploy now? [y/N]" with the output above it), for a notice read on a phone: the
// bottom non-blank rows, box edges dropped, credentials masked (the excerpt is kept in the
// event log and leaves the machine), cut to a few hundred characters.
import { redactCredentials } from "../../redact.js";

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

/**
 * What a notice says of a question: a question without choices (a shell's "Deploy to prod?
 * [y/N]", aider's "(Y)es/(N)o") is its own words, not the screen above it (earlier commands
 * and their output are noise on a phone, and may hold what should not leave the machine); a
 * dialog with choices is its lines (the permission's tool and command, the choices).
 */
export function questionPrompt(question: { text: string; choices: readonly unknown[] }, screenLines: readonly string[]): string {
  const words = question.text.replace(/[\u0000-\u001f\u007f]/g, " ").replace(/\s+/g, " ").trim();
  if (question.choices.length === 0 && words !== "") {
    const text = redactCredentials(words);
    return text.length > MAX_CHARS ? `${text.slice(0, MAX_CHARS - 1)}…` : text;
  }
  return questionExcerpt(screenLines);
}
