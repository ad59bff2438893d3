import { Rows } from "./rows.js";

/**
 * Replays raw pty output the way a terminal draws it, keeping only the text that would
 * remain visible: a carriage return moves the cursor to column 0 and later text
 * overwrites what is there (so a progress bar ends as its final state, and a shorter
 * rewrite leaves the tail of the longer one, exactly as on a screen); backspace moves
 * left; erase-in-line and cursor-column moves (`ESC[K`, `ESC[G`, `ESC[C/D`) apply; cursor
 * up/down (`ESC[A/B/E/F`, used by multi-line spinners) move between rows already
 * printed. Every other escape sequence and control character is dropped. Columns are
 * UTF-16 code units: wide characters are not measured, which only matters when a
 * rewrite lands in the middle of one.
 *
 * Absolute cursor positioning (`ESC[H`) and screen clears are ignored: the transcript is
 * history, not a screen, and those rows cannot be located in it.
 */
export function replayTerminal(text: string): Rows {
  const rows = new Rows(text, countLines(text));
  let row = -1;
  // Find lines that need emulation with one scan of the whole text rather than a test
  // per line: on 200k short lines the per-line test alone cost ~20 ms.
  NEEDS_EMULATION.lastIndex = 0;
  let nextSpecial = nextSpecialAt(text, 0);
  let start = 0;
  for (let index = 0; start <= text.length; index++) {
    let end = text.indexOf("\n", start);
    if (end === -1) end = text.length;
    // Each "\n" moves to the next row at column 0 (a pty's onlcr turns it into \r\n).
    row += 1;
    if (row === rows.count) rows.add(index);
    else rows.touch(row, index);
    const contentEnd = end > start && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    if (nextSpecial >= end) {
      // Printed as is: the row stays a span of the source unless it held longer text.
      const length = contentEnd - start;
      if (rows.textLength(row) <= length) rows.setSpan(row, start, contentEnd);
      else rows.setText(row, text.slice(start, contentEnd) + rows.text(row).slice(length));
    } else {
      row = replayLine(text.slice(start, contentEnd), row, rows, index);
      nextSpecial = nextSpecialAt(text, end);
    }
    start = end + 1;
  }
  return rows;
}

/** Lines in `text` (one more than its line feeds). */
export function countLines(text: string): number {
  let count = 1;
  for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", nl + 1)) count++;
  return count;
}

// Control characters other than the "\r" of a "\r\n" line ending.
const NEEDS_EMULATION = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]|\r(?!\n)/g;

function nextSpecialAt(text: string, from: number): number {
  NEEDS_EMULATION.lastIndex = from;
  const found = NEEDS_EMULATION.exec(text);
  return found === null ? Infinity : found.index;
}

// One token of a line: printable run | CSI | OSC | DCS/SOS/PM/APC string | other ESC sequence | one control char.
const TOKEN =
  /([^\x00-\x08\x0b-\x1f\x7f-\x9f]+)|(?:\x1b\[|\x9b)([0-?]*)[ -/]*([@-~])|(?:\x1b\]|\x9d)[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?|\x1b[PX^_][^\x1b\x9c]*(?:\x1b\\|\x9c)?|\x1b[ -/]*[0-~]?|([\x00-\x08\x0b-\x1f\x7f-\x9f])/y;

function replayLine(source: string, startRow: number, rows: Rows, index: number): number {
  let row = startRow;
  let text = rows.text(row);
  let col = 0;
  const moveTo = (target: number): void => {
    rows.setText(row, text);
    row = Math.max(0, target);
    while (row >= rows.count) rows.add(index);
    rows.touch(row, index);
    text = rows.text(row);
  };
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < source.length && (match = TOKEN.exec(source)) !== null) {
    const [, printable, params, final, control] = match;
    if (printable !== undefined) {
      text = overwrite(text, col, printable);
      col += printable.length;
    } else if (final !== undefined) {
      const n = firstParam(params ?? "");
      switch (final) {
        case "K": // erase in line: 0 → to end, 1 → to start, 2 → whole line (cursor stays)
          if (n === 0) text = text.slice(0, col);
          else if (n === 1) text = " ".repeat(Math.min(col + 1, text.length)) + text.slice(col + 1);
          else text = "";
          break;
        case "G":
          col = Math.max(0, (n || 1) - 1);
          break;
        case "C":
          col += n || 1;
          break;
        case "D":
          col = Math.max(0, col - (n || 1));
          break;
        case "A":
          moveTo(row - (n || 1));
          break;
        case "B":
          moveTo(row + (n || 1));
          break;
        case "E":
          moveTo(row + (n || 1));
          col = 0;
          break;
        case "F":
          moveTo(row - (n || 1));
          col = 0;
          break;
        default: // SGR and everything else: no effect on the text
      }
    } else if (control === "\r") {
      col = 0;
    } else if (control === "\b") {
      col = Math.max(0, col - 1);
    }
    // Any other control character or escape string is dropped (neutralised).
  }
  rows.setText(row, text);
  return row;
}

function firstParam(params: string): number {
  const value = Number.parseInt(params, 10);
  return Number.isNaN(value) ? 0 : value;
}

function overwrite(text: string, col: number, printable: string): string {
  if (col === text.length) return text + printable;
  if (col > text.length) return text + " ".repeat(col - text.length) + printable;
  return text.slice(0, col) + printable + text.slice(col + printable.length);
}
