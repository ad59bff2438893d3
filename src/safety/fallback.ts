// Used only when the real parser rejects the text: an unfinished `for … do` typed line
// by line, an unclosed quote, or input meant for a REPL rather than a shell.
// Refusing everything unparseable would block ordinary REPL input, and ignoring it
// would let `rm -rf / '` through, so the gate falls back to a conservative tokenizer:
// quotes and backslashes are honoured (an unclosed quote runs to the end), commands are
// split at ; & && || | |& ( ) { } and newlines, and the usual rules run on the pieces.
import type { ShellWord } from "./command.js";

export interface RoughStage { words: ShellWord[]; redirects: { op: string; target: string }[]; text: string }
export type RoughPipeline = RoughStage[];

const SEPARATORS = ["&&", "||", "|&", ";", "&", "|", "(", ")", "\n", "{", "}"];
const REDIRECTS = ["&>>", "&>", ">>", ">|", "<<<", "<<", "<>", ">&", ">", "<"];

export function roughParse(source: string): RoughPipeline[] {
  const pipelines: RoughPipeline[] = [];
  let stages: RoughStage[] = [];
  let stage = newStage();
  let pendingRedirect: string | null = null;
  let i = 0;

  const endStage = (): void => {
    if (stage.words.length || stage.redirects.length) stages.push(stage);
    stage = newStage();
  };
  const endPipeline = (): void => {
    endStage();
    if (stages.length) pipelines.push(stages);
    stages = [];
  };
  const addWord = (word: ShellWord): void => {
    if (pendingRedirect) {
      stage.redirects.push({ op: pendingRedirect, target: word.text });
      pendingRedirect = null;
    } else stage.words.push(word);
    stage.text += (stage.text ? " " : "") + word.text;
  };

  while (i < source.length) {
    const ch = source[i]!;
    if (ch === " " || ch === "\t" || ch === "\r") { i++; continue; }
    if (ch === "#") { while (i < source.length && source[i] !== "\n") i++; continue; }
    const separator = SEPARATORS.find((op) => source.startsWith(op, i));
    if (separator) {
      if (separator === "|" || separator === "|&") endStage();
      else endPipeline();
      i += separator.length;
      continue;
    }
    // A leading fd number (`2>`) belongs to the redirection, not to the words.
    const fd = /^\d*/.exec(source.slice(i, i + 4))![0];
    const redirect = REDIRECTS.find((op) => source.startsWith(op, i + fd.length));
    if (redirect) { pendingRedirect = redirect; i += fd.length + redirect.length; continue; }
    const [word, next] = readWord(source, i);
    addWord(word);
    i = next;
  }
  endPipeline();
  return pipelines;
}

function newStage(): RoughStage {
  return { words: [], redirects: [], text: "" };
}

function readWord(source: string, start: number): [ShellWord, number] {
  let text = "";
  let literal = true;
  let i = start;
  while (i < source.length) {
    const ch = source[i]!;
    if (/[\s;&|()<>{}]/.test(ch)) break;
    if (ch === "\\") { text += source[i + 1] ?? ""; i += 2; continue; }
    if (ch === "'") {
      const end = source.indexOf("'", i + 1);
      const stop = end < 0 ? source.length : end;
      text += source.slice(i + 1, stop);
      i = stop + 1;
      continue;
    }
    if (ch === '"') {
      let j = i + 1;
      while (j < source.length && source[j] !== '"') {
        if (source[j] === "\\" && j + 1 < source.length) { text += source[j + 1]; j += 2; continue; }
        if (source[j] === "$") literal = false;
        text += source[j];
        j++;
      }
      i = j + 1;
      continue;
    }
    if (ch === "$" && (source[i + 1] === "{" || source[i + 1] === "(")) {
      const end = closingBracket(source, i + 1);
      text += source.slice(i, end);
      literal = false;
      i = end;
      continue;
    }
    if (ch === "$" || ch === "`") literal = false;
    text += ch;
    i++;
  }
  return [{ text, literal }, i];
}

/** Index just past the bracket that closes the one at `open` (or the end of the text). */
function closingBracket(source: string, open: number): number {
  const opening = source[open]!;
  const closing = opening === "{" ? "}" : ")";
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    if (source[i] === opening) depth++;
    else if (source[i] === closing && --depth === 0) return i + 1;
  }
  return source.length;
}
