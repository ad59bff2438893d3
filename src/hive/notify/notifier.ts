// Follows the hive's event log and sends the notices in it. Every termhive process with
// notifications configured runs one from its start (Crew.followHive); the claim (claim.ts) makes
// each notice go out from one of them. Reading is by cursor from the log's newest event at
// start (history is never re-sent), on a short poll (statuses written by another process
// have no in-process event) and at once on `wake()` (a change this process recorded).
// Sending is fire-and-forget through per-endpoint queues: nothing here waits on the network.
import { randomBytes } from "node:crypto";
import type { Hive } from "../index.js";
import type { NotifyConfig, NotifyEndpoint } from "./notify-config.js";
import { NotificationClaims } from "./claim.js";
import { noticeOf, wants, type Notice } from "./notice.js";
import { endsTurn } from "./turn-end.js";
import { EndpointQueue, redactUrl, sendWithRetry, type Attempt, defaultAttempt } from "./sender.js";

export const POLL_MS = 250;

export type AuditWriter = (entry: Record<string, unknown> & { event: string }) => void;

export interface NotifierOptions {
  pollMs?: number;
  backoffMs?: number;
  attempt?: Attempt;
  /** A session's name (watch hits on a plain terminal name it; the hive knows only ids). */
  sessionName?: (id: string) => string | undefined;
  /** The dashboard's "Needs you" entry for an agent, when a dashboard runs (waiting notices link to it). */
  needsYouLink?: (agent: string) => string | undefined;
}

export class Notifier {
  readonly claimer = `${process.pid}:${randomBytes(4).toString("hex")}`;
  private readonly claims: NotificationClaims;
  private readonly queues: EndpointQueue[];
  private cursor: number;
  private readonly timer: NodeJS.Timeout;
  private reading = false;

  constructor(
    private readonly hive: Hive,
    private readonly config: NotifyConfig,
    private readonly audit: AuditWriter,
    private readonly options: NotifierOptions = {},
  ) {
    this.claims = new NotificationClaims(hive.store);
    this.queues = config.endpoints.map((endpoint) => new EndpointQueue(endpoint, (n) => this.deliver(endpoint, n), (n) => this.auditSend(endpoint, n, { outcome: "dropped", reason: "the endpoint's queue was full" })));
    this.cursor = hive.events.latestCursor();
    this.timer = setInterval(() => this.wake(), options.pollMs ?? POLL_MS);
    this.timer.unref(); // notifications are no reason to keep a finished CLI process alive
  }

  dispose(): void {
    clearInterval(this.timer);
  }

  /** The name tests knew it by. */
  stop(): void {
    this.dispose();
  }

  /** Reads what the log has past the cursor and queues the notices this process claims. Never throws. */
  wake(): void {
    if (this.reading) return;
    this.reading = true;
    try {
      for (;;) {
        if (this.hive.events.latestCursor() === this.cursor) return;
        const page = this.hive.events.since(this.cursor, { kinds: ["status", "watch"], limit: 200 });
        this.cursor = page.cursor;
        for (const event of page.events) {
          const notice = noticeOf(event, (name) => this.hive.agents.find(name)?.team ?? null, this.options.sessionName);
          if (notice?.kind === "waiting" && notice.agent) {
            const link = this.options.needsYouLink?.(notice.agent);
            if (link) notice.link = link;
          }
          if (notice?.kind === "turn_done" && notice.agent && !endsTurn(this.hive.store, notice.agent, notice.id)) continue;
          if (notice) this.consider(notice);
        }
        if (!page.more) return;
      }
    } catch {
      // store locked or closed: the next poll reads on from the same cursor
    } finally {
      this.reading = false;
    }
  }

  private consider(notice: Notice): void {
    const now = new Date();
    const targets = this.queues.filter((q) => wants(q.endpoint, notice, now));
    if (targets.length === 0) return; // nobody wants it (quiet hours, filters): no claim either
    const result = this.claims.claim(notice, this.claimer, this.config.debounceMs, now.getTime());
    if (result === "taken") {
      this.audit({ event: "notify", notice: notice.id, kind: notice.kind, agent: notice.agent, outcome: "claimed_elsewhere" });
      return;
    }
    if (result === "debounced") {
      this.audit({ event: "notify", notice: notice.id, kind: notice.kind, agent: notice.agent, outcome: "debounced" });
      return;
    }
    for (const q of targets) q.push(notice);
  }

  private async deliver(endpoint: NotifyEndpoint, notice: Notice): Promise<void> {
    const backoff = this.options.backoffMs;
    const outcome = await sendWithRetry(endpoint, notice, { timeoutMs: this.config.timeoutMs, attempts: this.config.attempts, ...(backoff !== undefined ? { backoffMs: backoff } : {}) }, this.options.attempt ?? defaultAttempt);
    this.auditSend(endpoint, notice, { outcome: outcome.ok ? "sent" : "failed", attempts: outcome.attempts, status: outcome.status, reason: outcome.error });
  }

  private auditSend(endpoint: NotifyEndpoint, notice: Notice, extra: Record<string, unknown>): void {
    this.audit({ event: "notify", notice: notice.id, kind: notice.kind, agent: notice.agent, endpoint: endpoint.kind, url: redactUrl(endpoint.url), ...extra });
  }
}
