// Live terminals with xterm.js: one per watched session, sized like its pane (the font
// shrinks to fit the box, so lines wrap where they wrap in tmux). Read-only unless taken
// over; screen-reader mode keeps the screen's text in the DOM.
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { el } from "./dom.js";

const MAX_FONT = 14;
const MIN_FONT = 8;

export class TermView {
  readonly box: HTMLElement;
  private readonly term: Terminal;
  private readonly fit = new FitAddon();
  private cols = 80;
  private rows = 24;

  constructor(readonly session: string, name: string, onInput: (data: string) => void, onPick: () => void) {
    this.term = new Terminal({ screenReaderMode: true, disableStdin: true, scrollback: 1000, fontSize: MAX_FONT, cursorBlink: false, convertEol: false });
    this.term.loadAddon(this.fit);
    const screen = el("div", { class: "term-screen" });
    this.box = el("div", { class: "term", "data-session": session, "data-name": name }, el("div", { class: "term-name" }, name), screen);
    this.box.addEventListener("mousedown", onPick);
    this.term.onData((data) => onInput(data));
    this.term.open(screen);
  }

  picture(rows: number, cols: number, data: string): void {
    this.term.reset();
    this.rows = rows;
    this.cols = cols;
    this.term.resize(cols, rows);
    this.term.write(data);
    this.fitFont();
    this.box.dataset.drawn = "1";
  }

  write(data: string): void {
    this.term.write(data);
  }

  closed(reason: string): void {
    this.term.write(`\r\n\x1b[7m[${reason}]\x1b[0m`);
  }

  setTakeover(on: boolean): void {
    this.term.options.disableStdin = !on;
    this.box.classList.toggle("taken-over", on);
    if (on) this.term.focus();
  }

  /** Largest font at which the pane's columns and rows fit the box (the fit addon measures). */
  fitFont(): void {
    let size = MAX_FONT;
    for (; size > MIN_FONT; size--) {
      this.term.options.fontSize = size;
      const fits = this.fit.proposeDimensions();
      if (!fits || (fits.cols >= this.cols && fits.rows >= this.rows)) break;
    }
    this.term.options.fontSize = size;
    this.term.resize(this.cols, this.rows);
  }

  dispose(): void {
    this.term.dispose();
    this.box.remove();
  }
}
