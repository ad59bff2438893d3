// User-supplied regexes (until, pattern, filter, watchers) must never stall the server.
// V8's linear engine takes over from backtracking for most patterns (flag set at start-up);
// patterns it cannot run (lookarounds, backreferences) are matched in a worker with a deadline.
import { setFlagsFromString } from "node:v8";
import { Worker } from "node:worker_threads";

let linearFallbackEnabled = false;

/** Call once at start-up, before any user regex is compiled. */
export function enableLinearRegexFallback(): void {
  if (linearFallbackEnabled) return;
  setFlagsFromString("--enable-experimental-regexp-engine-on-excessive-backtracks");
  linearFallbackEnabled = true;
}

export class InvalidRegexError extends Error {
  override name = "InvalidRegexError";
}

export class RegexTimeoutError extends Error {
  override name = "RegexTimeoutError";
}

/** Lookarounds and backreferences: features the linear engine does not support. */
const NEEDS_BACKTRACKING = /\(\?<?[=!]|\\[1-9]|\\k</;

export interface SafeMatch {
  index: number;
  text: string;
}

export class SafeRegex {
  readonly regex: RegExp;
  private readonly isolated: boolean;

  constructor(readonly source: string, what = "pattern", flags = "m") {
    try {
      this.regex = new RegExp(source, flags);
    } catch (error) {
      throw new InvalidRegexError(`invalid ${what} regex ${JSON.stringify(source)}: ${(error as Error).message.replace(/^Invalid regular expression: /, "")}`);
    }
    this.isolated = NEEDS_BACKTRACKING.test(source);
  }

  /** First match in text, bounded in time. */
  async exec(text: string, timeoutMs = 250): Promise<SafeMatch | null> {
    if (!this.isolated) {
      this.regex.lastIndex = 0;
      const m = this.regex.exec(text);
      return m ? { index: m.index, text: m[0] } : null;
    }
    return isolatedExec(this.regex.source, this.regex.flags, text, timeoutMs);
  }

  /** Synchronous test for places that cannot await (only for patterns the linear engine can run). */
  testSync(text: string): boolean | undefined {
    if (this.isolated) return undefined;
    this.regex.lastIndex = 0;
    return this.regex.test(text);
  }

  get needsIsolation(): boolean {
    return this.isolated;
  }
}

const WORKER_SOURCE = `
const { parentPort } = require("node:worker_threads");
parentPort.on("message", ({ id, source, flags, text }) => {
  const m = new RegExp(source, flags).exec(text);
  parentPort.postMessage({ id, match: m ? { index: m.index, text: m[0] } : null });
});`;

let worker: Worker | null = null;
let nextId = 0;
const waiting = new Map<number, (value: SafeMatch | null) => void>();

function getWorker(): Worker {
  if (worker) return worker;
  const created = new Worker(WORKER_SOURCE, { eval: true });
  created.unref();
  created.on("message", ({ id, match }: { id: number; match: SafeMatch | null }) => {
    waiting.get(id)?.(match);
    waiting.delete(id);
  });
  created.on("error", () => {
    if (worker === created) worker = null;
  });
  worker = created;
  return created;
}

function isolatedExec(source: string, flags: string, text: string, timeoutMs: number): Promise<SafeMatch | null> {
  const id = nextId++;
  const target = getWorker();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      // The match cannot be interrupted inside the worker: end the worker, start a fresh one next time.
      waiting.delete(id);
      if (worker === target) worker = null;
      void target.terminate();
      for (const [otherId, settle] of waiting) {
        waiting.delete(otherId);
        settle(null);
      }
      reject(new RegexTimeoutError(`regex ${JSON.stringify(source)} took over ${timeoutMs} ms on ${text.length} characters; simplify it (avoid nested quantifiers with lookarounds/backreferences)`));
    }, timeoutMs);
    waiting.set(id, (value) => {
      clearTimeout(timer);
      resolve(value);
    });
    target.postMessage({ id, source, flags, text });
  });
}
