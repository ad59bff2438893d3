// One open page on the live channel: what it watches, whether it has taken over a pane, and
// the frames it is sent. Frames are gathered for FLUSH_MS and sent together; while the
// socket's send buffer is past HIGH_WATER nothing more is queued on it (output keeps
// piling up in the transcript only, and goes as one frame, or a fresh picture, later).
import type { WebSocket } from "ws";
import type { ServiceRoot } from "../service/root.js";
import type { Disposable } from "../util/lifecycle.js";
import { VERB, type AnyVerb, type Services } from "../verbs/index.js";
import { callVerb } from "../verbs/call.js";
import { classify } from "../verbs/errors.js";
import { parseClientMessage } from "./client-messages.js";
import type { HiveFeed } from "./hive-feed.js";
import type { ClientMessage, ServerMessage } from "./protocol.js";
import { SessionStream } from "./session-stream.js";

const FLUSH_MS = 4;
const CONGESTED_RETRY_MS = 50;
const HIGH_WATER = 1024 * 1024;

export class DashboardConnection {
  private readonly streams = new Map<string, SessionStream>();
  private readonly takenOver = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private sentSnapshot = -1;
  private lastEventId = -1;
  private closed = false;
  /** Keystrokes are written one frame after another, in the order they came. */
  private typing: Promise<void> = Promise.resolve();
  private readonly schedule = () => {
    if (!this.flushTimer && !this.closed) this.flushTimer = setTimeout(() => this.flush(), FLUSH_MS);
  };

  private readonly feedUpdates: Disposable;

  private get service() {
    return this.root.terminal;
  }

  constructor(
    private readonly ws: WebSocket,
    private readonly root: ServiceRoot,
    private readonly feed: HiveFeed,
    private readonly log: (line: string) => void,
  ) {
    feed.acquire();
    this.feedUpdates = feed.onUpdate(this.schedule);
    ws.on("message", (data, isBinary) => {
      if (isBinary) return this.refuse("a binary frame");
      void this.handle(data.toString());
    });
    ws.on("close", () => this.dispose());
    ws.on("error", () => this.dispose());
    const { events } = feed.latest();
    // A new page gets the events the feed holds, not everything since the hive began.
    if (events.length > 0) this.lastEventId = events[0]!.id - 1;
    this.schedule();
  }

  private dispose(): void {
    if (this.closed) return;
    this.closed = true;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.feedUpdates.dispose();
    this.feed.release();
    for (const stream of this.streams.values()) stream.dispose();
    this.streams.clear();
    for (const id of this.takenOver) this.service.audit.write({ event: "dashboard-takeover", session: id, on: false });
  }

  private send(message: ServerMessage): void {
    if (!this.closed) this.ws.send(JSON.stringify(message));
  }

  private flush(): void {
    this.flushTimer = undefined;
    if (this.closed) return;
    if (this.ws.bufferedAmount > HIGH_WATER) {
      this.flushTimer = setTimeout(() => this.flush(), CONGESTED_RETRY_MS);
      return;
    }
    const { snapshot, version, events } = this.feed.latest();
    if (snapshot && version !== this.sentSnapshot) {
      this.sentSnapshot = version;
      this.send(snapshot);
    }
    const fresh = events.filter((e) => e.id > this.lastEventId);
    if (fresh.length > 0) {
      this.lastEventId = fresh[fresh.length - 1]!.id;
      this.send({ t: "events", events: fresh });
    }
    for (const [id, stream] of this.streams) {
      const frame = stream.next();
      if (frame) this.send(frame);
      if (stream.goneReason !== null) {
        this.send({ t: "closed", session: id, reason: stream.goneReason });
        stream.dispose();
        this.streams.delete(id);
      }
    }
  }

  /** A frame that is not one of ours: logged, answered, and the socket closed. */
  private refuse(reason: string): void {
    this.log(`refused a malformed live-channel frame (${reason}); closing that page's connection`);
    this.send({ t: "error", message: `refused: ${reason}` });
    this.ws.close(1008, "malformed frame");
  }

  private async handle(raw: string): Promise<void> {
    const parsed = parseClientMessage(raw);
    if (!parsed.ok) return this.refuse(parsed.reason);
    const m = parsed.message;
    try {
      if (m.t === "input") {
        const step = this.typing.then(() => this.act(m));
        this.typing = step.catch(() => {});
        await step;
      } else await this.act(m);
    } catch (error) {
      const message = (error as Error).message;
      if ("id" in m) this.send({ t: "reply", id: m.id, ok: false, error: message });
      else this.send({ t: "error", message });
    }
  }

  private async act(m: ClientMessage): Promise<void> {
    switch (m.t) {
      case "watch":
        return this.watch(m.sessions);
      case "takeover": {
        const session = await this.service.session(m.session);
        if (m.on) this.takenOver.add(session.id);
        else this.takenOver.delete(session.id);
        this.service.audit.write({ event: "dashboard-takeover", session: session.id, name: session.name, on: m.on });
        return;
      }
      case "input": {
        const session = await this.service.session(m.session);
        // Typing needs the switch on: a stray key press on a watched terminal types nothing.
        if (!this.takenOver.has(session.id)) throw new Error(`session ${session.name} is read-only here: take it over first`);
        if (!session.alive) throw new Error(`session ${session.name} has exited`);
        await session.write(Buffer.from(m.data, "utf8"));
        return;
      }
      case "message": {
        const to = m.to;
        const input = to.kind === "everyone" ? { broadcast: m.text } : to.kind === "team" ? { teams: { [to.name]: m.text } } : { agents: { [to.name]: m.text } };
        return this.callVerb(m.id, VERB.hiveMessage, { ...input, confirm: m.confirm }, true);
      }
      case "answer":
        // "Needs you": the same hive_answer path as every door (stale digest refused, gate, audit).
        return this.callVerb(m.id, VERB.hiveAnswer, { agent: m.agent, answer: m.answer, question: m.question }, true);
      case "mailbox":
        return this.callVerb(m.id, VERB.hiveInbox, { agent: m.agent, all: true, peek: true, limit: 50 }, false);
    }
  }

  /**
   * A verb the page asks for, as every door calls one: its input checked by the verb's schema,
   * its operation, and a failure worded as every door words it. A change it makes (a message,
   * an answer) is shown at once, not at the next feed update.
   */
  private async callVerb(id: number, verb: AnyVerb, input: object, changes: boolean): Promise<void> {
    try {
      const services: Services = { terminal: this.root.terminal, hive: () => this.root.hive };
      const result = await callVerb(verb, services, input, { clientId: "dashboard" });
      this.send({ t: "reply", id, ok: true, result });
      if (changes) this.schedule();
    } catch (error) {
      this.send({ t: "reply", id, ok: false, error: classify(error).message });
    }
  }

  private async watch(refs: string[]): Promise<void> {
    const wanted = new Map<string, SessionStream | undefined>();
    for (const ref of refs) {
      const session = await this.service.session(ref).catch(() => undefined);
      if (!session) {
        this.send({ t: "closed", session: ref, reason: "no such session" });
        continue;
      }
      if (wanted.has(session.id)) continue;
      wanted.set(session.id, this.streams.get(session.id) ?? new SessionStream(session, this.schedule));
    }
    if (this.closed) {
      for (const s of wanted.values()) s?.dispose();
      return;
    }
    for (const [id, stream] of this.streams) if (!wanted.has(id)) stream.dispose();
    this.streams.clear();
    for (const [id, stream] of wanted) this.streams.set(id, stream!);
    this.schedule();
  }
}
