// Finds, in a program's output, the echo of text termhive typed into it when no shell marks
// say where input ends (a REPL, a program reading a line, an agent's input box): the typed
// characters, in order, as they come back. Between two of them only what a redraw adds may
// stand (escape sequences, control characters, blanks, box edges, a few stray characters);
// a typed text whose echo does not come soon, or whose next character stops coming, is
// given up, so a program that does not echo (a password read) never has its output taken
// for an echo for long.

/** How long after typing (or after its last echoed character) the rest of an echo may come. */
const ECHO_WAIT_MS = 2_000;
/** Printed characters that may stand before the first echoed one or between two (a prompt, a redraw's prefix). */
const MAX_STRAY = 24;
/** Characters of typed text awaited at most (a long paste's echo beyond it is output like any other). */
const MAX_EXPECTED = 16 * 1024;

/** What a redraw puts between echoed characters: blanks and box-drawing edges. */
const FILLER = /[\s\u2500-\u257f]/;

export class TypedEcho {
  private expected = "";
  private at = 0;
  private stray = 0;
  private lastSeen = 0;

  /** termhive typed `text` (its printable characters are what an echo shows). */
  typed(text: string, now = Date.now()): void {
    const printable = text.replace(/\x1b\[20[01]~/g, "").replace(/[\x00-\x1f\x7f]/g, "");
    if (!printable) return;
    if (now - this.lastSeen > ECHO_WAIT_MS) this.forget();
    this.expected = (this.expected.slice(this.at) + printable).slice(-MAX_EXPECTED);
    this.at = 0;
    this.stray = 0;
    this.lastSeen = now;
  }

  /** Nothing more is awaited (the shell's own marks cover its input from here). */
  forget(): void {
    this.expected = "";
    this.at = 0;
  }

  /**
   * Scans a chunk of output that starts at transcript offset `base`; `mark` gets each range
   * of it that echoes typed characters.
   */
  scan(text: string, base: number, mark: (start: number, end: number) => void, now = Date.now()): void {
    if (this.at >= this.expected.length) return;
    if (now - this.lastSeen > ECHO_WAIT_MS) return this.forget();
    // The run of echoed characters being collected: [runStart, runEnd) of this chunk.
    let runStart = -1;
    let runEnd = -1;
    const flush = () => {
      if (runStart >= 0) mark(base + runStart, base + runEnd);
      runStart = -1;
    };
    for (let i = 0; i < text.length && this.at < this.expected.length; i++) {
      const c = text[i]!;
      if (c === "\x1b") {
        flush();
        i = skipEscape(text, i) - 1;
        continue;
      }
      if (c === this.expected[this.at]) {
        if (runStart < 0) runStart = i;
        runEnd = i + 1;
        this.at++;
        this.stray = 0;
        this.lastSeen = now;
        continue;
      }
      flush();
      if (c < " " || c === "\x7f" || FILLER.test(c)) continue;
      if (++this.stray > MAX_STRAY) {
        this.forget();
        return;
      }
    }
    flush();
    if (this.at >= this.expected.length) this.forget();
  }
}

/** Index just past the escape sequence starting at `i` (CSI, OSC/DCS up to BEL or ST, or ESC + one). */
function skipEscape(text: string, i: number): number {
  const kind = text[i + 1];
  if (kind === "[") {
    let j = i + 2;
    while (j < text.length && !/[\x40-\x7e]/.test(text[j]!)) j++;
    return Math.min(j + 1, text.length);
  }
  if (kind === "]" || kind === "P" || kind === "_" || kind === "^") {
    for (let j = i + 2; j < text.length; j++) {
      if (text[j] === "\x07") return j + 1;
      if (text[j] === "\x1b" && text[j + 1] === "\\") return j + 2;
    }
    return text.length;
  }
  return Math.min(i + 2, text.length);
}
