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
  /** Recognises the output when the command is unknown; look at few lines, it runs on every read. */
  shape?: (lines: readonly Line[]) => boolean;
  /** `target` builds fetch markers for anything cut inside the reduced view. */
  reduce(lines: readonly Line[], target: FetchTarget): Line[];
}
