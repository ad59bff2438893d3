// Runs one user regex over a long text off the event loop (see SafeRegex.execAsync). A worker
// per expensive call: it can be terminated when its time is up, which a synchronous re2js
// match on the main thread cannot be.
import { Worker } from "node:worker_threads";
import { createRequire } from "node:module";
import type { SafeMatch } from "./regex.js";

// The worker is CommonJS code given inline, so it runs the same from src/ (tsx) and dist/.
const RE2JS_PATH = createRequire(import.meta.url).resolve("re2js");
const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const { RE2JS } = require(${JSON.stringify(RE2JS_PATH)});
const { source, bits, text } = workerData;
const m = RE2JS.compile(source, bits).matcher(text);
parentPort.postMessage(m.find() ? { index: m.start(), text: m.group() ?? "" } : null);
`;

export class RegexTimeoutError extends Error {
  override name = "RegexTimeoutError";
}

export function matchInWorker(source: string, bits: number, text: string, timeoutMs: number, label: string): Promise<SafeMatch | null> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_CODE, { eval: true, workerData: { source, bits, text } });
    // A server shutting down does not wait for a match nobody will read.
    worker.unref();
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new RegexTimeoutError(`${label} did not finish matching ${text.length} characters within ${timeoutMs} ms and was stopped; make the pattern narrower (fewer repeats of .*) or read less text`));
    }, timeoutMs);
    worker.once("message", (found: SafeMatch | null) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(found);
    });
    worker.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
