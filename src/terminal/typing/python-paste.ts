// Code typed into Python's interactive interpreter is read statement by statement, and there an
// entirely empty line ends a compound statement. Ordinary source breaks on that: a class whose
// methods are separated by an empty line ends after the first one (IndentationError for the
// rest, then AttributeError: the user trial's pasted class), and a top-level line right after a
// block without one is a SyntaxError. A person pasting such code would fix it by hand; a run
// types it as a file would mean it: an empty line inside an indented block is left out, and
// one is put before a top-level line that follows a block. Lines inside brackets or
// triple-quoted strings are taken as they are (their empty lines are part of the text).

/** What was typed instead, and how many empty lines were left out or put in. */
export interface PythonPaste {
  text: string;
  droppedEmpty: number;
  addedEmpty: number;
}

/** Statements that continue the block before them at the same indentation. */
const CONTINUES_BLOCK = /^(?:else|elif|except|finally)\b/;

export function pasteForPythonRepl(source: string): PythonPaste {
  const lines = source.split(/\r\n|\r|\n/);
  const continued = continuedLines(lines);
  const out: string[] = [];
  let droppedEmpty = 0;
  let addedEmpty = 0;
  let blockOpen = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (continued[i]) {
      out.push(line);
      continue;
    }
    if (line === "") {
      const next = nextStatementLine(lines, continued, i + 1);
      if (next !== undefined && /^\s/.test(next)) {
        droppedEmpty++;
        continue;
      }
      blockOpen = false;
      out.push(line);
      continue;
    }
    // Whitespace or a comment alone does not end a block in the REPL: it changes nothing here.
    if (/^\s*(?:#.*)?$/.test(line)) {
      out.push(line);
      continue;
    }
    const indented = /^\s/.test(line);
    if (!indented && blockOpen && !CONTINUES_BLOCK.test(line)) {
      out.push("");
      addedEmpty++;
    }
    blockOpen = indented;
    out.push(line);
  }
  return { text: out.join("\n"), droppedEmpty, addedEmpty };
}

/** The next line at or after `from` that holds a statement (not empty, not only blanks or a comment). */
function nextStatementLine(lines: string[], continued: boolean[], from: number): string | undefined {
  for (let j = from; j < lines.length; j++) {
    if (!continued[j] && !/^\s*(?:#.*)?$/.test(lines[j]!)) return lines[j];
  }
  return undefined;
}

/** Per line: it starts inside brackets, a triple-quoted string, or after a backslash-newline. */
function continuedLines(lines: string[]): boolean[] {
  const result: boolean[] = [];
  let depth = 0;
  let triple: string | null = null;
  let backslash = false;
  for (const line of lines) {
    result.push(depth > 0 || triple !== null || backslash);
    backslash = false;
    let i = 0;
    while (i < line.length) {
      if (triple) {
        const end = line.indexOf(triple, i);
        if (end === -1) break;
        i = end + 3;
        triple = null;
        continue;
      }
      const ch = line[i]!;
      if (ch === "#") break;
      if (ch === '"' || ch === "'") {
        if (line.startsWith(ch.repeat(3), i)) {
          triple = ch.repeat(3);
          i += 3;
          continue;
        }
        i = endOfShortString(line, i + 1, ch);
        continue;
      }
      if ("([{".includes(ch)) depth++;
      else if (")]}".includes(ch)) depth = Math.max(0, depth - 1);
      else if (ch === "\\" && i === line.length - 1) backslash = true;
      i++;
    }
  }
  return result;
}

/** Past the quote that closes a one-line string opened before `from` (or the line's end). */
function endOfShortString(line: string, from: number, quote: string): number {
  for (let i = from; i < line.length; i++) {
    if (line[i] === "\\") i++;
    else if (line[i] === quote) return i + 1;
  }
  return line.length;
}
