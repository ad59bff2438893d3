// How an iTerm2 pane's output is rebuilt: every screen update, prompt mark and custom escape
// sequence queues a read of the screen, in order per pane, and what the pane's ScreenStream
// makes of it goes out as that pane's output.
import type { EventEmitter } from "node:events";
import type { PaneInfo } from "../backend.js";
import type { BufferContents, Iterm2Client } from "../../iterm2/client.js";
import { withoutSessionEnded } from "./session-ended.js";
import type { ScreenStream } from "./screen-stream.js";
import { EXIT_IDENTITY, cwdOsc } from "./session-vars.js";

export interface Iterm2Pane {
  info: PaneInfo;
  stream: ScreenStream;
  /** Everything touching the stream runs here, in order. */
  chain: Promise<void>;
  updateQueued: boolean;
  /** Prompt notifications received and not handled yet. */
  marksPending: number;
  outputs: number;
  unsubscribe: (() => Promise<void>)[];
}

export interface FeedHost {
  api(): Iterm2Client;
  readonly events: EventEmitter;
  markExited(pane: Iterm2Pane, status: number | null, signal: number | null): void;
}

export class PaneFeed {
  constructor(private readonly host: FeedHost) {}

  private get api(): Iterm2Client {
    return this.host.api();
  }

  private get events(): EventEmitter {
    return this.host.events;
  }

  /**
   * Queues a read of the screen and what `job` makes of it. `start` runs first (its text goes
   * before the job's), `after` once the text is out.
   */
  enqueue(pane: Iterm2Pane, job: (buffer: BufferContents) => string, steps: { start?: () => Promise<string>; after?: () => void } = {}): Promise<void> {
    const run = async () => {
      if (pane.info.dead) return;
      const prefix = steps.start ? await steps.start() : "";
      const buffer = await this.readBuffer(pane);
      const lost = pane.stream.lostLines;
      const out = prefix + job(buffer);
      if (out) this.emitOutput(pane, out);
      if (pane.stream.lostLines > lost) {
        this.events.emit("gap", pane.info.paneId, `${pane.stream.lostLines - lost} lines scrolled out of iTerm2's history before they were read`);
      }
      steps.after?.();
    };
    const next = pane.chain.then(run, run);
    // A session that vanished mid-read is reported by its terminate notification, not here.
    pane.chain = next.catch(() => undefined);
    return next;
  }

  private emitOutput(pane: Iterm2Pane, text: string): void {
    pane.outputs++;
    this.events.emit("output", pane.info.paneId, Buffer.from(text, "utf8"));
  }

  /** Enough lines to reach back to the first one the stream has not sent. */
  private async readBuffer(pane: Iterm2Pane): Promise<BufferContents> {
    const rows = pane.info.rows > 0 ? pane.info.rows : 50;
    let buffer = await this.api.getBuffer(pane.info.paneId, rows + 200);
    const needed = pane.stream.linesNeeded(buffer);
    if (needed > buffer.lines.length && buffer.firstLine > 0) buffer = await this.api.getBuffer(pane.info.paneId, Math.min(needed, 100_000));
    return withoutSessionEnded(buffer);
  }

  queueUpdate(pane: Iterm2Pane): void {
    if (pane.updateQueued || !this.streaming(pane)) return;
    pane.updateQueued = true;
    // Cleared before the screen is read, so a change after this read queues the next one.
    const start = async () => {
      pane.updateQueued = false;
      return "";
    };
    void this.enqueue(pane, (b) => pane.stream.update(b, pane.marksPending > 0), { start }).catch(() => (pane.updateQueued = false));
  }

  /** An adopted pane waits for its snapshot before it streams (the snapshot holds the screen so far). */
  streaming(pane: Iterm2Pane): boolean {
    return pane.stream.primed || !pane.info.meta.__adopted;
  }

  onPrompt(pane: Iterm2Pane, e: Record<string, any>): void {
    if (!this.streaming(pane)) return;
    const mark = (job: (b: BufferContents) => string, withCwd = false) => {
      // Counted from arrival: a screen read answered after this notification must not send
      // the cursor's line past the mark (iTerm2 answers in the order it parsed the output).
      pane.marksPending++;
      const start = async () => {
        pane.marksPending--;
        return withCwd ? this.cwdReport(pane) : "";
      };
      void this.enqueue(pane, job, { start }).catch(() => undefined);
    };
    // The directory also goes in before each prompt, as shell integrations send it there.
    if (e.event === "prompt") mark((b) => pane.stream.prompt(b), true);
    else if (e.event === "command_start") mark((b) => pane.stream.commandStart(b, pane.marksPending > 0));
    else if (e.event === "command_end") mark((b) => pane.stream.commandEnd(b, typeof e.command_end?.status === "number" ? e.command_end.status : null));
  }

  /** iTerm2 consumes OSC 7 and keeps the directory in the "path" variable: it goes back in as OSC 7 before each prompt. */
  private async cwdReport(pane: Iterm2Pane): Promise<string> {
    const [path] = await this.api.getVariables({ session: pane.info.paneId }, ["path"]).catch(() => [null]);
    if (typeof path !== "string" || !path.startsWith("/")) return "";
    pane.info = { ...pane.info, cwd: path };
    return cwdOsc(path);
  }

  onCustom(pane: Iterm2Pane, identity: string, payload: string): void {
    if (!this.streaming(pane)) return;
    if (identity === EXIT_IDENTITY) {
      const code = Number(payload);
      // A shell reports death by signal n as 128+n.
      const [status, signal] = code > 128 ? [null, code - 128] : [code, null];
      void this.enqueue(pane, (b) => pane.stream.finish(b), { after: () => this.host.markExited(pane, status, signal) }).catch(() => this.host.markExited(pane, status, signal));
      return;
    }
    void this.enqueue(pane, (b) => pane.stream.custom(b, `\x1b]1337;Custom=id=${identity}:${payload}\x07`, pane.marksPending > 0)).catch(() => undefined);
  }
}
