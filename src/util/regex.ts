// User-supplied regexes (until, pattern, filter, hive wait/read, watchers) must never stall
// the server. They run on RE2 semantics (re2js: matching in time linear in the text, whatever
// the pattern — no catastrophic backtracking with any flag or counted repeat). What RE2 cannot
// run in linear time (lookarounds, backreferences) is refused with an error naming the construct.
import { setFlagsFromString } from "node:v8";
import { RE2JS } from "re2js";
import { matchInWorker } from "./regex-worker.js";

export class InvalidRegexError extends Error {
  override name = "InvalidRegexError";
}

export interface SafeMatch {
  index: number;
  text: string;
}

/** Longest pattern accepted (RE2 compiles in time and memory proportional to it). */
export const MAX_PATTERN_CHARS = 4000;

/**
 * The event-loop bound for one user-regex match: re2js simulates the pattern's program over
 * the text, so a match costs at most (instructions × characters) steps, ~130 ns each at worst
 * (measured: `(.*a){20}`, 102 instructions, over 100,000 a's: 1.3 s). Up to 300,000 steps
 * (≤ ~40 ms) run in place; above that the match runs in a worker thread (execAsync/testAsync).
 */
export const SYNC_MATCH_STEPS = 300_000;

/** How long a worker match may run before it is stopped and the call answers with an error. */
export const WORKER_MATCH_TIMEOUT_MS = 10_000;

/** JavaScript-only constructs RE2 refuses, named so the error says what to change. */
const UNSUPPORTED: { test: RegExp; what: string }[] = [
  { test: /\(\?<=/, what: "lookbehind `(?<=…)`" },
  { test: /\(\?<!/, what: "negative lookbehind `(?<!…)`" },
  { test: /\(\?=/, what: "lookahead `(?=…)`" },
  { test: /\(\?!/, what: "negative lookahead `(?!…)`" },
  { test: /(^|[^\\])(\\\\)*\\[1-9]/, what: "backreference `\\1`" },
  { test: /\\k</, what: "named backreference `\\k<…>`" },
];

const FLAG_BITS: Record<string, number> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL };

export class SafeRegex {
  private readonly pattern: RE2JS;
  private readonly bits: number;
  private readonly label: string;
  /** Size of the compiled program: the per-character cost factor of a match. */
  private readonly instructions: number;

  /**
   * @param flags JavaScript-style: i (case-insensitive), m (^ and $ per line), s (. matches
   *   newlines), u (accepted: RE2 is Unicode-aware anyway), g and y (ignored: every match
   *   starts from the beginning).
   */
  constructor(readonly source: string, what = "pattern", readonly flags = "m") {
    const label = `${what} regex ${JSON.stringify(source.length > 200 ? source.slice(0, 200) + "…" : source)}`;
    if (source.length > MAX_PATTERN_CHARS) throw new InvalidRegexError(`${label} is ${source.length} characters; the limit is ${MAX_PATTERN_CHARS}`);
    const badFlag = [...flags].find((f) => !"imsugy".includes(f));
    if (badFlag !== undefined) throw new InvalidRegexError(`${label}: flag ${JSON.stringify(badFlag)} is not supported; use i, m, s or u`);
    for (const { test, what: construct } of UNSUPPORTED) {
      if (test.test(source)) {
        throw new InvalidRegexError(`${label} uses ${construct}, which termhive does not run (regexes are matched in linear time, RE2 syntax); rewrite it without`);
      }
    }
    let bits = 0;
    for (const f of flags) bits |= FLAG_BITS[f] ?? 0;
    this.bits = bits;
    this.label = label;
    try {
      this.pattern = RE2JS.compile(source, bits);
      this.instructions = this.pattern.matcher("").numberOfInstructions;
    } catch (error) {
      throw new InvalidRegexError(`invalid ${label}: ${(error as Error).message.replace(/^error parsing regexp: /, "")}`);
    }
  }

  /** The first match in `text`, or null. Linear in the text's length. */
  exec(text: string): SafeMatch | null {
    const matcher = this.pattern.matcher(lineEnds(text));
    if (!matcher.find()) return null;
    return { index: matcher.start(), text: matcher.group() ?? "" };
  }

  test(text: string): boolean {
    // RE2JS's own test: no Matcher, no capture groups, its DFA when it can (3-6× a matcher's find).
    return this.pattern.test(lineEnds(text));
  }

  /** Upper bound of the steps a match over `text` takes in place (≈ 130 ns each at worst). */
  cost(text: string): number {
    return this.instructions * text.length;
  }

  /** Whether matching `text` could hold the event loop past SYNC_MATCH_STEPS. */
  private expensive(text: string): boolean {
    return this.cost(text) > SYNC_MATCH_STEPS;
  }

  /**
   * As exec, but never holds the event loop longer than SYNC_MATCH_STEPS allow: a costly
   * pattern × text pair runs in a worker, stopped after WORKER_MATCH_TIMEOUT_MS with a
   * RegexTimeoutError (never a silent "no match").
   */
  async execAsync(text: string, timeoutMs = WORKER_MATCH_TIMEOUT_MS): Promise<SafeMatch | null> {
    if (!this.expensive(text)) return this.exec(text);
    return matchInWorker(this.source, this.bits, lineEnds(text), timeoutMs, this.label);
  }

  async testAsync(text: string, timeoutMs = WORKER_MATCH_TIMEOUT_MS): Promise<boolean> {
    return (await this.execAsync(text, timeoutMs)) !== null;
  }

  toString(): string {
    return `/${this.source}/${this.flags}`;
  }
}

/**
 * Terminal text ends its lines in "\r\n" and redraws with a lone "\r". In JavaScript both
 * are line ends for `^`, `$` and `.`; RE2 knows only "\n". Same length, so indexes hold.
 */
function lineEnds(text: string): string {
  return text.includes("\r") ? text.replace(/\r/g, "\n") : text;
}

let linearFallbackEnabled = false;

/**
 * For termhive's own JavaScript regexes (reducers, safety rules, profiles): V8 switches to
 * its linear engine when one backtracks excessively. Call once at start-up.
 */
export function enableLinearRegexFallback(): void {
  if (linearFallbackEnabled) return;
  setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
  linearFallbackEnabled = true;
}
