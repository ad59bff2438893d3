// TERMHIVE_SSH is written like the start of a shell command ("ssh -F ~/my config" quoted as a
// shell would): split into words with the quoting rules people expect, never run by a shell.
import { shellWord } from "./shell-word.js";

export class WordListError extends Error {
  override name = "WordListError";
}

/** Splits on unquoted whitespace; '…' is literal, "…" honours \" \\ \$ \`, \ escapes one character. */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let word: string | null = null;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = (word ?? "") + c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < text.length && '"\\$`'.includes(text[i + 1]!)) word = (word ?? "") + text[++i];
      else word = (word ?? "") + c;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\") {
      if (i + 1 >= text.length) throw new WordListError("ends with a lone backslash");
      word = (word ?? "") + text[++i];
    } else word = (word ?? "") + c;
  }
  if (quote) throw new WordListError(`has an unclosed ${quote} quote`);
  if (word !== null) words.push(word);
  return words;
}

/** The words back as one POSIX shell command line (each single-quoted unless inert). */
export function joinWords(words: readonly string[]): string {
  return words.map(shellWord).join(" ");
}
