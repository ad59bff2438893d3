// Where on a session's screen the echo of input stands: the cells an integrated shell drew
// between starting to read a line (OSC 133 B) and starting its command (C). Each edge is a
// line marker (it follows the text as the screen scrolls) and a column, taken once xterm has
// parsed everything before the edge. Profile rules read the screen with these cells hidden,
// so a question typed on the command line is not a question the program asked.
import type { IBuffer, IMarker } from "@xterm/headless";

interface Edge {
  marker: IMarker;
  col: number;
}

interface Region {
  from?: Edge;
  to?: Edge;
  /** The end edge was asked for (it may still be waiting for xterm's parse). */
  ending: boolean;
}

/**
 * What a cell of input shows instead of its character. Not a blank: a command line blanked
 * would leave its prompt looking like a prompt waiting (a silent `sleep` judged idle), and a
 * person's half-typed line would look empty. Nothing a rule looks for.
 */
const HIDDEN = "░";

/** Regions kept; older ones have scrolled far above any rule's lines. */
const MAX_REGIONS = 32;

export class ScreenInput {
  private regions: Region[] = [];

  /** A line began being read: returns the callback that places its start once parsed. */
  begin(): (edge: Edge | undefined) => void {
    const region: Region = { ending: false };
    this.regions.push(region);
    if (this.regions.length > MAX_REGIONS) this.drop(this.regions.shift()!);
    return (edge) => {
      if (edge) region.from = edge;
    };
  }

  /** The line being read ended: returns the callback that places its end once parsed (none open: null). */
  end(): ((edge: Edge | undefined) => void) | null {
    const region = this.regions.at(-1);
    if (!region || region.ending) return null;
    region.ending = true;
    return (edge) => {
      if (edge) region.to = edge;
      // An end that could not be placed (the alternate screen was up) closes the region where it began.
      else if (region.from) region.to = region.from;
    };
  }

  /** What the line being read showed so far was printed there: its input starts here (callback as above). */
  restart(): ((edge: Edge | undefined) => void) | null {
    const region = this.regions.at(-1);
    if (!region || region.ending) return null;
    return (edge) => {
      if (!edge) return;
      region.from?.marker.dispose();
      region.from = edge;
    };
  }

  /** The visible rows, with the cells of input hidden (trailing blanks trimmed). */
  mask(buffer: IBuffer, rows: number, cols: number): string[] {
    const lines: string[] = [];
    const live = this.regions.filter((r) => r.from && !r.from.marker.isDisposed && r.from.marker.line >= 0);
    for (let y = 0; y < rows; y++) {
      const at = buffer.viewportY + y;
      const line = buffer.getLine(at);
      if (!line) {
        lines.push("");
        continue;
      }
      const blank: [number, number][] = [];
      for (const region of live) {
        const from = region.from!;
        const toLine = region.to ? (region.to.marker.isDisposed ? Infinity : region.to.marker.line) : Infinity;
        if (at < from.marker.line || at > toLine) continue;
        const start = at === from.marker.line ? from.col : 0;
        const stop = region.to && at === toLine ? region.to.col : cols;
        if (stop > start) blank.push([start, stop]);
      }
      let text = "";
      let col = 0;
      for (const [start, stop] of blank.sort((a, b) => a[0] - b[0])) {
        if (stop <= col) continue;
        if (start > col) text += line.translateToString(false, col, start);
        text += line.translateToString(false, Math.max(start, col), stop).replace(/\S/g, HIDDEN);
        col = stop;
      }
      text = (col < cols ? text + line.translateToString(false, col, cols) : text).trimEnd();
      lines.push(text);
    }
    return lines;
  }

  private drop(region: Region): void {
    region.from?.marker.dispose();
    region.to?.marker.dispose();
  }
}
