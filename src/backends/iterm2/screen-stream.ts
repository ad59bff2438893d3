// iTerm2's API gives screen contents, not the bytes a program wrote. termhive's sessions read
// a byte stream, so this turns successive snapshots of one iTerm2 session into one: every line
// once, in order, as text plus CR LF, and the line the cursor is on as it grows. iTerm2 parses
// the OSC 133 marks itself and reports them as prompt notifications; they are put back into the
// stream at the line they belong to, so completion works as on the other backends.
//
// What is lost (the documented limits of the iTerm2 backend): colours and other attributes,
// a line changed after the cursor left it (full-screen programs are seen line by line, not
// redrawn), text written below the cursor, and bytes that are not text.
import type { BufferContents } from "../../iterm2/client.js";

const MARK = (body: string) => `\x1b]133;${body}\x07`;

type Phase =
  /** No prompt open: every finished line goes out as soon as the cursor leaves it. */
  | "free"
  /** Between the prompt and the command's start: the command line is held until it is run. */
  | "input"
  /** Between the command's end and the next prompt: the new prompt waits for its mark. */
  | "ended";

export class ScreenStream {
  /** Absolute number of the first line not yet sent with its line ending. */
  private sentThrough: number | null = null;
  /** What was sent of that line so far. */
  private partial = "";
  private phase: Phase = "free";
  private promptLine = 0;
  /** Lines that left iTerm2's history before they were read (the output lost so far). */
  lostLines = 0;

  /** Starts the stream at what the screen shows now (an adopted pane's history already holds it). */
  prime(buffer: BufferContents): void {
    this.sentThrough = buffer.cursor.y;
    this.partial = lineAt(buffer, buffer.cursor.y)?.text ?? "";
  }

  get primed(): boolean {
    return this.sentThrough !== null;
  }

  /** The lines the stream still needs from the buffer, counted back from its end. */
  linesNeeded(buffer: BufferContents): number {
    const end = buffer.firstLine + buffer.lines.length;
    return this.sentThrough === null ? buffer.lines.length : Math.max(0, end - this.sentThrough);
  }

  /**
   * The screen changed. `marksPending`: a prompt notification arrived that is not handled yet,
   * so the line the cursor is on may already lie beyond it (the next prompt): it waits.
   */
  update(buffer: BufferContents, marksPending = false): string {
    switch (this.phase) {
      case "free":
        return this.sendUpTo(buffer, buffer.cursor.y, !marksPending);
      case "input":
        return this.sendUpTo(buffer, this.commandLineEnd(buffer), true);
      case "ended":
        return this.sendUpTo(buffer, buffer.cursor.y, false);
    }
  }

  /** A prompt is shown (iTerm2 saw OSC 133 A/B): mark where it starts and where input starts. */
  prompt(buffer: BufferContents): string {
    let out = this.sendUpTo(buffer, buffer.cursor.y, false);
    if (this.partial) out += "\r\x1b[K";
    out += MARK("A");
    this.partial = "";
    out += this.sendUpTo(buffer, buffer.cursor.y, true) + MARK("B");
    this.phase = "input";
    this.promptLine = buffer.cursor.y;
    return out;
  }

  /** The command line was run (OSC 133 C): its line ends, its output starts. */
  commandStart(buffer: BufferContents, marksPending = false): string {
    let out = "";
    // No prompt mark seen (a pane adopted at its prompt): the line in progress is the command line.
    if (this.phase === "free" && this.partial && this.sentThrough !== null) {
      this.phase = "input";
      this.promptLine = this.sentThrough;
    }
    if (this.phase === "input") {
      const end = this.commandLineEnd(buffer);
      out += end < buffer.cursor.y ? this.sendUpTo(buffer, end + 1, false) : this.sendUpTo(buffer, end, true);
    }
    this.phase = "free";
    return out + MARK("C") + this.update(buffer, marksPending);
  }

  /** The command finished with `status` (OSC 133 D): its output ends here. */
  commandEnd(buffer: BufferContents, status: number | null): string {
    let out = this.sendUpTo(buffer, buffer.cursor.y, false);
    // The buffer is read after the notification, so the line the cursor is on may already be
    // the next prompt: take it back (the prompt's mark re-sends it). Output that ended without
    // a newline is taken back with it: the documented price of rebuilding output from screens.
    if (this.partial) {
      out += "\r\x1b[K";
      this.partial = "";
    }
    this.phase = "ended";
    return out + MARK(status === null ? "D" : `D;${status}`);
  }

  /** An escape sequence iTerm2 consumed and reported (OSC 1337 Custom), put back in place. */
  custom(buffer: BufferContents, sequence: string, marksPending = false): string {
    return this.update(buffer, marksPending) + sequence;
  }

  /** The program ended: everything left on the screen goes out. */
  finish(buffer: BufferContents): string {
    let last = buffer.cursor.y;
    for (let y = buffer.firstLine + buffer.lines.length - 1; y > last; y--) {
      if (lineAt(buffer, y)?.text) {
        last = y;
        break;
      }
    }
    this.phase = "free";
    return this.sendUpTo(buffer, last, true);
  }

  /** Where the command line being typed ends: the prompt's line and its soft-wrapped continuation. */
  private commandLineEnd(buffer: BufferContents): number {
    let y = Math.max(this.promptLine, buffer.firstLine);
    while (y < buffer.cursor.y && lineAt(buffer, y)?.soft) y++;
    return Math.min(y, buffer.cursor.y);
  }

  /** Sends whole lines before `end`, then (when `withPartial`) line `end` as far as it goes. */
  private sendUpTo(buffer: BufferContents, end: number, withPartial: boolean): string {
    if (this.sentThrough === null) this.sentThrough = buffer.firstLine;
    // Lines that left the history before they were read cannot be sent: skip to what is there.
    if (this.sentThrough < buffer.firstLine) {
      this.lostLines += buffer.firstLine - this.sentThrough;
      this.sentThrough = buffer.firstLine;
      this.partial = "";
    }
    let out = "";
    const last = buffer.firstLine + buffer.lines.length - 1;
    for (let y = this.sentThrough; y < end && y <= last; y++) {
      const line = lineAt(buffer, y)!;
      out += this.rest(line.text) + (line.soft ? "" : "\r\n");
      this.sentThrough = y + 1;
      this.partial = "";
    }
    if (withPartial && this.sentThrough === end && end <= last) {
      const text = lineAt(buffer, end)!.text;
      out += this.rest(text);
      this.partial = text;
    }
    return out;
  }

  /** The part of the current line not sent yet; a line that changed otherwise is rewritten. */
  private rest(text: string): string {
    if (text.startsWith(this.partial)) return text.slice(this.partial.length);
    return `\r\x1b[K${text}`;
  }
}

function lineAt(buffer: BufferContents, y: number) {
  return buffer.lines[y - buffer.firstLine];
}
