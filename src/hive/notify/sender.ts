// Sending one notice to one endpoint: a bounded time per attempt, a few attempts with growing
// pauses, and nothing thrown (the outcome is returned for the audit log). Each endpoint has
// its own bounded queue with a few notices in flight at once, so an endpoint that hangs or
// refuses holds up only its own notices, never the hive nor the other endpoints, and one
// notice's retries do not hold a fresh one back. Only the first few KB of an answer are read:
// a receiver's answer body is never needed, and one could be endless.
import { execFile } from "node:child_process";
import { findOnPath } from "../../util/find-program.js";
import type { NotifyEndpoint } from "./notify-config.js";
import type { Notice } from "./notice.js";
import { ntfyRequest, webhookRequest } from "./payload.js";

export interface SendOutcome {
  ok: boolean;
  attempts: number;
  /** The last HTTP status, when there was one. */
  status?: number;
  /** Why the last attempt failed. */
  error?: string;
}

export interface SendOptions {
  timeoutMs: number;
  attempts: number;
  /** First pause between attempts; each next one is 4× longer. */
  backoffMs?: number;
}

/** One attempt; resolves with the result, never rejects. */
export type Attempt = (endpoint: NotifyEndpoint, notice: Notice, timeoutMs: number) => Promise<{ ok: boolean; status?: number; error?: string }>;

export const DEFAULT_BACKOFF_MS = 1000;
/** How much of an endpoint's answer is read (then the connection is dropped). */
export const ANSWER_READ_BYTES = 4096;
/** Notices of one endpoint sent at once: a notice waiting out its back-off keeps one slot. */
export const IN_FLIGHT = 4;

/** The URL as the audit log shows it: scheme and host only (paths and queries carry webhook tokens and ntfy topics). */
export function redactUrl(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname !== "/" || u.search ? "/…" : ""}`;
  } catch {
    return "(invalid url)";
  }
}

const httpAttempt: Attempt = async (endpoint, notice, timeoutMs) => {
  const request = endpoint.kind === "ntfy" ? ntfyRequest(notice) : webhookRequest(notice);
  try {
    const response = await fetch(endpoint.url!, { method: "POST", headers: request.headers, body: request.body, signal: AbortSignal.timeout(timeoutMs), redirect: "error" });
    await readSome(response, ANSWER_READ_BYTES);
    return response.ok ? { ok: true, status: response.status } : { ok: false, status: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    const e = error as Error & { cause?: { code?: string } };
    // AbortSignal.timeout rejects with a DOMException, whose kinds share one class and differ by name only.
    const reason = e instanceof DOMException && e.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : (e.cause?.code ?? e.message);
    return { ok: false, error: reason };
  }
};

/** Reads up to `limit` bytes of the body, then cancels the rest (the connection is closed, not drained). */
async function readSome(response: Response, limit: number): Promise<void> {
  const reader = response.body?.getReader();
  if (!reader) return;
  try {
    for (let read = 0; read < limit; ) {
      const chunk = await reader.read();
      if (chunk.done) return;
      read += chunk.value.byteLength;
    }
  } catch {
    // the answer broke off: its status is what counts
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}

const onPath = (program: string): boolean => findOnPath(program) !== null;

/** notify-send (Linux desktops) or osascript (macOS), when the machine has one. */
export function desktopCommand(notice: Notice, platform: NodeJS.Platform = process.platform): [string, string[]] | null {
  if (platform === "darwin" && onPath("osascript")) {
    const q = (s: string) => JSON.stringify(s); // AppleScript string literals use the same escapes
    return ["osascript", ["-e", `display notification ${q(notice.message)} with title ${q(`termhive: ${notice.title}`)}`]];
  }
  if (onPath("notify-send")) return ["notify-send", ["--app-name=termhive", `termhive: ${notice.title}`, notice.message]];
  return null;
}

const desktopAttempt: Attempt = (_endpoint, notice, timeoutMs) => {
  const command = desktopCommand(notice);
  if (!command) return Promise.resolve({ ok: false, error: "no notify-send or osascript on this machine" });
  return new Promise((resolve) => {
    execFile(command[0], command[1], { timeout: timeoutMs }, (error) => resolve(error ? { ok: false, error: error.message.split("\n")[0] } : { ok: true }));
  });
};

export const defaultAttempt: Attempt = (endpoint, notice, timeoutMs) => (endpoint.kind === "desktop" ? desktopAttempt(endpoint, notice, timeoutMs) : httpAttempt(endpoint, notice, timeoutMs));

const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/** Sends with retries; a "no desktop" answer is not retried (it will not change). */
export async function sendWithRetry(endpoint: NotifyEndpoint, notice: Notice, options: SendOptions, attempt: Attempt = defaultAttempt): Promise<SendOutcome> {
  let last: { ok: boolean; status?: number; error?: string } = { ok: false };
  for (let n = 1; n <= options.attempts; n++) {
    last = await attempt(endpoint, notice, options.timeoutMs);
    if (last.ok) return { ok: true, attempts: n, ...(last.status !== undefined ? { status: last.status } : {}) };
    // A 4xx other than 408/429 is the receiver refusing this request: sending it again will not help.
    const final = last.error?.startsWith("no notify-send") || (last.status !== undefined && last.status >= 400 && last.status < 500 && last.status !== 408 && last.status !== 429);
    if (final || n === options.attempts) return failed(n, last);
    await pause((options.backoffMs ?? DEFAULT_BACKOFF_MS) * 4 ** (n - 1));
  }
  return failed(options.attempts, last);
}

function failed(attempts: number, last: { status?: number; error?: string }): SendOutcome {
  return { ok: false, attempts, ...(last.status !== undefined ? { status: last.status } : {}), ...(last.error !== undefined ? { error: last.error } : {}) };
}

/**
 * One endpoint's pending notices, sent up to `inFlight` at a time (a notice waiting out its
 * retries' back-off or a hanging attempt keeps one slot; the others go on). Past `limit`
 * waiting, the oldest is dropped (and reported): a dead endpoint costs bounded memory.
 */
export class EndpointQueue {
  private readonly pending: Notice[] = [];
  private sending = 0;

  constructor(
    readonly endpoint: NotifyEndpoint,
    private readonly send: (notice: Notice) => Promise<void>,
    private readonly dropped: (notice: Notice) => void,
    readonly limit = 100,
    readonly inFlight = IN_FLIGHT,
  ) {}

  get size(): number {
    return this.pending.length;
  }

  push(notice: Notice): void {
    this.pending.push(notice);
    while (this.pending.length > this.limit) this.dropped(this.pending.shift()!);
    this.pump();
  }

  private pump(): void {
    while (this.sending < this.inFlight) {
      const next = this.pending.shift();
      if (!next) return;
      this.sending++;
      void this.send(next)
        .catch(() => undefined)
        .finally(() => {
          this.sending--;
          this.pump();
        });
    }
  }
}
