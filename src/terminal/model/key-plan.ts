// What a sequence of named keys does to the pending input line (pending-line.ts): for each key,
// whether it submits and which line it submits, and the line left after the last key.
import { afterKey, EMPTY_LINE, type PendingLine } from "./pending-line.js";

export interface KeyStep {
  submits: boolean;
  /** The line before this key (for a submitting key: the line it submits). */
  line: PendingLine;
}

export interface KeyPlan {
  steps: KeyStep[];
  after: PendingLine;
}

/** `keys` are canonical names (backends/keys.ts resolveKey(...).name). */
export function planKeys(start: PendingLine, keys: readonly string[]): KeyPlan {
  let line = start;
  const steps: KeyStep[] = [];
  for (const key of keys) {
    const next = afterKey(line, key);
    steps.push({ submits: next === "submit", line });
    line = next === "submit" ? EMPTY_LINE : next;
  }
  return { steps, after: line };
}
