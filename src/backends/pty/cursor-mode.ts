// Tracks DECCKM (application cursor keys) from a pane's output, so sendKeys can send
// "\x1bOA" instead of "\x1b[A" to vim, less and readline in keypad mode. tmux does this for
// its own panes; the pty backend has no terminal emulator of its own, so it scans cheaply.

/** DECSET/DECRST with a parameter list (`\x1b[?1;1049h`), and RIS (`\x1bc`) which resets modes. */
const MODE = /\x1b\[\?([0-9;]*)([hl])|\x1bc/g;
/** An escape sequence this long cannot be a DECSET we care about; bounds the carried tail. */
const MAX_TAIL = 32;

export class CursorModeTracker {
  appCursor = false;
  private tail = "";

  feed(data: Buffer): void {
    // Fast path: no ESC in this chunk and nothing carried — most output is plain text.
    if (this.tail === "" && !data.includes(0x1b)) return;
    // latin1 maps bytes 1:1, so a sequence split across chunks joins back exactly.
    const text = this.tail + data.toString("latin1");
    for (const match of text.matchAll(MODE)) {
      if (match[0] === "\x1bc") {
        this.appCursor = false;
        continue;
      }
      if (match[1]!.split(";").includes("1")) this.appCursor = match[2] === "h";
    }
    // Keep an unfinished sequence (ESC near the end with no final byte yet) for the next chunk.
    const lastEsc = text.lastIndexOf("\x1b");
    const pending = lastEsc >= 0 && text.length - lastEsc < MAX_TAIL ? text.slice(lastEsc) : "";
    this.tail = /^\x1b(\[\??[0-9;]*)?$/.test(pending) ? pending : "";
  }
}
