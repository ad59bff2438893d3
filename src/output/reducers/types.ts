import type { Line } from "../line.js";
import type { FetchTarget } from "../markers.js";

/**
 * A reducer turns one tool's cleaned output into the part a model needs. It drops lines
 * (passing tests, progress, stat bars…) but never a key fact: failing test names and the
 * summary, commit subjects, error locations, the last line.
 */
export interface Reducer {
  name: string;
  /** Matches the normalised command (see command.ts), e.g. "git log --stat", "pytest -x". */
  command: RegExp;
  /**
   * Recognises the output when the command is unknown; look at few lines, it runs on every
   * read. It is shown at most the first and last SHAPE_EDGE_LINES lines of a long output.
   */
  shape?: (lines: readonly Line[]) => boolean;
  /**
   * Each line it writes stands for the whole block of source lines it spans (git log: one line
   * per commit, its subject kept): a line spanning the last source line says it, so that line
   * is not appended raw after it.
   */
  summarisesBlocks?: true;
  /** Its lines say what they are from their start on (a commit's hash and subject): one over the fold's width is cut at its end, not in its middle. */
  cutsAtEnd?: true;
  /** `target` builds fetch markers for anything cut inside the reduced view. */
  reduce(lines: readonly Line[], target: FetchTarget): Line[];
}

/** How much of each end of a long output a shape check sees (node-test looks 200 lines up from the end). */
export const SHAPE_EDGE_LINES = 200;
