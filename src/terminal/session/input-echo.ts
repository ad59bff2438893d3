// The echo of the line an integrated shell reads, told apart from what programs print on it.
// Between the shell's B (it reads a line) and its C (the line runs) the terminal shows what was
// typed — not output — except whole lines a job printed there meanwhile. The screen model gets
// the same edges, so the screen rules read (profile rules) see what was printed only.
import { EchoRanges } from "../model/echo-ranges.js";
import { TypedEcho } from "../model/typed-echo.js";
import type { OscEvent } from "../model/osc.js";
import { stripAnsi } from "../../util/ansi.js";

/** How long a whole untyped line at the prompt waits for the C that would make it a submitted line's echo. */
export const TYPED_ELSEWHERE_SETTLE_MS = 750;

export type ScreenEdge = "start" | "end" | "restart";

export class InputLineEcho {
  /** The transcript's ranges that echo input rather than hold what the program printed. */
  readonly ranges = new EchoRanges();
  /** Where a shell without marks echoes what termhive typed. */
  readonly typed = new TypedEcho();
  /** Where the screen's input edges fall in the chunk being taken in (transcript offsets). */
  edges: { at: number; edge: ScreenEdge }[] = [];
  /** This process typed (or pressed a key) on the line the shell reads; until then what stands there was printed (a job's lines). */
  typedOnLine = false;
  /**
   * A whole line stands on the line the shell reads and nobody here typed it: either a job
   * printed it, or another process (a person) typed it and pressed Enter, its C still on the
   * way. bash writes readline's line break and PS0's C apart, and under load they come in two
   * chunks (a second process matched that echo as output). Decided by what comes next: C
   * first keeps it echo; anything else, or nothing for TYPED_ELSEWHERE_SETTLE_MS, makes it output.
   */
  private undecided: { at: number; timer: NodeJS.Timeout } | null = null;

  /** `markScreen`: puts an edge on the screen model where its writes stand now. */
  constructor(private readonly markScreen: (edge: ScreenEdge) => void) {}

  get reading(): boolean {
    return this.ranges.reading;
  }

  /** Where the line the shell reads begins, past what was printed on it (null: none is read). */
  get lineFrom(): number | null {
    return this.undecided?.at ?? this.ranges.openAt;
  }

  /** The shell started reading an input line at `at`: its echo is not output. */
  starts(at: number): void {
    this.forgetUndecided();
    if (this.ranges.reading) return;
    this.typed.forget();
    this.ranges.open(at);
    this.edges.push({ at, edge: "start" });
  }

  /** The input line ends at `at` (its command's output starts there, or a new prompt). */
  ends(at: number): void {
    this.forgetUndecided();
    if (!this.ranges.reading) return;
    this.typedOnLine = false;
    this.ranges.close(at);
    this.edges.push({ at, edge: "end" });
  }

  /** What the line being read shows up to `at` was printed, not typed: its echo starts there. */
  printedUpTo(at: number): number {
    const from = this.ranges.openAt;
    if (from !== null && at > from) this.edges.push({ at, edge: "restart" });
    this.ranges.advance(at);
    return at;
  }

  /** A chunk came (before its events are applied): unless it opens with C, the undecided line was printed. */
  chunkArrived(text: string, base: number, events: readonly { event: OscEvent; start: number }[]): void {
    if (this.undecided && !startsWithCommandOutput(text, base, events)) this.settle();
  }

  /** A chunk left a whole untyped line ending at `at` on the line being read. */
  leaveUndecided(at: number): void {
    this.forgetUndecided();
    const timer = setTimeout(() => {
      if (this.undecided?.at !== at) return;
      // Nothing came since: the screen is written up to this break, where the mark goes.
      this.settle();
      for (const { edge } of this.edges) this.markScreen(edge);
      this.edges = [];
    }, TYPED_ELSEWHERE_SETTLE_MS);
    timer.unref();
    this.undecided = { at, timer };
  }

  dispose(): void {
    this.forgetUndecided();
  }

  /** The undecided line was printed (a job's): output up to its break. */
  private settle(): void {
    const at = this.undecided?.at;
    this.forgetUndecided();
    if (at !== undefined && this.ranges.reading) this.printedUpTo(at);
  }

  private forgetUndecided(): void {
    if (this.undecided) clearTimeout(this.undecided.timer);
    this.undecided = null;
  }
}

/**
 * The chunk opens with the command's start (C), only escapes (zsh's command line, E) and a
 * carriage return before it. A line break there is the Enter's own: the undecided line was a
 * job's, printed while a person had typed part of a line (the user trial: bash, a job's line
 * after `echo typed`, then Enter), and stays output.
 */
function startsWithCommandOutput(text: string, base: number, events: readonly { event: OscEvent; start: number }[]): boolean {
  const c = events.find((e) => e.event.type === "command-output");
  return c !== undefined && !/[^\r]/.test(stripAnsi(text.slice(0, c.start - base)));
}
