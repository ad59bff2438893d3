// One page's view of one session's terminal. The page is sent a picture first (the tail of
// the transcript, replayed into a fresh xterm), then everything printed since, from a
// transcript offset. A page that cannot keep up is not sent each chunk: whatever piled up
// goes as one frame when it can take it, and past RESYNC_CHARS it gets a fresh picture
// instead, so the server never holds more than the transcript already holds.
import { DisposableStore } from "../util/lifecycle.js";
import type { TerminalSession } from "../terminal/session/session.js";
import type { ServerMessage } from "./protocol.js";

/** Transcript text replayed to draw a session's picture (enough for a screen and some scrollback). */
const TAIL_CHARS = 64 * 1024;
/** Further behind than this, a page is redrawn from the tail rather than sent everything it missed. */
const RESYNC_CHARS = 256 * 1024;

export class SessionStream {
  private offset = 0;
  private needsPicture = true;
  /** The size the page's terminal was given: a resized pane is drawn afresh. */
  private size = "";

  private readonly subscriptions = new DisposableStore();

  constructor(readonly session: TerminalSession, onActivity: () => void) {
    this.subscriptions.add(session.onOutput(() => onActivity()));
    this.subscriptions.add(session.onClosed(() => onActivity()));
  }

  dispose(): void {
    this.subscriptions.dispose();
  }

  get goneReason(): string | null {
    return this.session.goneReason;
  }

  /** The frame this page needs now, if any. */
  next(): ServerMessage | undefined {
    const transcript = this.session.transcript;
    if (this.needsPicture || this.size !== this.sizeNow() || this.offset < transcript.start || transcript.end - this.offset > RESYNC_CHARS) return this.picture();
    if (this.offset >= transcript.end) return undefined;
    const text = transcript.slice(this.offset).text;
    this.offset = transcript.end;
    return { t: "out", session: this.session.id, data: this.session.redact(text) };
  }

  private sizeNow(): string {
    return `${this.session.pane.rows}x${this.session.pane.cols}`;
  }

  private picture(): ServerMessage {
    const transcript = this.session.transcript;
    this.needsPicture = false;
    this.size = this.sizeNow();
    this.offset = transcript.end;
    const from = Math.max(transcript.start, transcript.end - TAIL_CHARS);
    let text = transcript.slice(from).text;
    // Cut at a line start: the text before it may end inside an escape sequence.
    if (from > transcript.start) {
      const newline = text.indexOf("\n");
      if (newline !== -1) text = text.slice(newline + 1);
    }
    // A full-screen program switched screens before the tail began: switch the page's too.
    if (this.session.screen.snapshot().alternate && !text.includes("\x1b[?1049h")) text = "\x1b[?1049h" + text;
    return { t: "screen", session: this.session.id, rows: this.session.pane.rows, cols: this.session.pane.cols, data: this.session.redact(text) };
  }
}
