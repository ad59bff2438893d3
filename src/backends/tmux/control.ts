import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { EventEmitter } from "node:events";
import type { Writable } from "node:stream";
import { ControlParser, type Notification, type Reply } from "./protocol.js";

export class TmuxError extends Error {
  constructor(message: string, readonly command?: string) {
    super(message);
    this.name = "TmuxError";
  }
}

export class TmuxGoneError extends TmuxError {
  constructor(reason: string) {
    super(`tmux is not running${reason ? ` (${reason})` : ""}; the call was not carried out — retry, termhive reconnects on the next call`);
    this.name = "TmuxGoneError";
  }
}

/**
 * Runs tmux (exec, so the child's pid is tmux's) beside a watchdog that kills it when termhive
 * dies. tmux ends a control client on stdin EOF only once all output owed to it is written, and
 * with a pane that keeps printing that never happens: after a kill -9 of termhive the client
 * lived on, attached for ever. Node has no PR_SET_PDEATHSIG, so the watchdog reads fd 3, a pipe
 * only termhive holds open: a line means "tmux is done, leave quietly"; EOF without one means
 * termhive is gone. Its own stdio is /dev/null so it keeps none of tmux's pipes open.
 */
const WATCHDOG =
  '{ read -r line <&3 && exit 0; kill -KILL $$; } 0</dev/null 1>/dev/null 2>/dev/null & exec "$@" 3<&-';

interface Pending {
  command: string;
  resolve(lines: string[]): void;
  reject(error: Error): void;
}

export interface ControlOptions {
  tmuxPath: string;
  socketPath: string;
  configPath: string;
  sessionName: string;
  /** Program of the session's first window, used only when this client creates the session. */
  firstWindow: { name: string; argv: string[] };
  env: NodeJS.ProcessEnv;
  /** Turns the tmux argv into the argv to run (a remote host: ssh running it there). Default: as is. */
  launch?: (tmuxArgv: string[]) => string[];
  /** Says why the client ended when it printed nothing (a remote host: ssh dropped the link). */
  describeExit?: (code: number | null, signal: NodeJS.Signals | null) => string;
}

/**
 * One tmux control-mode client: a command queue matched to %begin/%end replies in order,
 * and notifications emitted as events ("notification", "closed").
 */
export class ControlClient extends EventEmitter {
  private child: ChildProcessWithoutNullStreams | null = null;
  private queue: Pending[] = [];
  private closedReason: string | null = null;

  constructor(private readonly options: ControlOptions) {
    super();
  }

  get alive(): boolean {
    return this.child !== null && this.closedReason === null;
  }

  start(): Promise<void> {
    const { tmuxPath, socketPath, configPath, sessionName, env, firstWindow, launch, describeExit } = this.options;
    const tmuxArgv = [
      tmuxPath,
      // -u: UTF-8 whatever the locale. Started from a bare environment (no LANG: the MCP SDK's
      // default env, systemd, cron, GUI apps) tmux otherwise prints the tabs of -F formats as "_".
      ...["-u", "-S", socketPath, "-f", configPath, "-C", "new-session", "-A", "-s", sessionName, "-n", firstWindow.name, "-x", "120", "-y", "40", ...firstWindow.argv],
    ];
    const child = spawn("/bin/sh", ["-c", WATCHDOG, "termhive-tmux-watchdog", ...(launch ? launch(tmuxArgv) : tmuxArgv)], {
      env,
      stdio: ["pipe", "pipe", "pipe", "pipe"],
    }) as ChildProcessWithoutNullStreams;
    this.child = child;
    const lifeline = child.stdio[3] as Writable;
    lifeline.on("error", () => {});
    // tmux exited on its own: dismiss the watchdog (a line, then EOF) so it never signals a pid
    // that may since have been reused.
    child.once("exit", () => lifeline.end("exit\n"));
    this.closedReason = null;
    const parser = new ControlParser(
      (reply) => this.settle(reply),
      (notification) => this.notify(notification),
    );
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => parser.feed(chunk));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.stdin.on("error", () => {}); // EPIPE after tmux died; reported through "exit"
    return new Promise((resolve, reject) => {
      child.once("error", (error) => {
        this.close(`cannot run ${tmuxPath}: ${error.message}`);
        reject(new TmuxError(`cannot run ${tmuxPath}: ${error.message}`));
      });
      // "close", not "exit": tmux -C says why it ends on stdout ("%exit server exited
      // unexpectedly"), and that line may still be unread when "exit" fires.
      child.once("close", (code, signal) => {
        const silentExit = describeExit?.(code, signal) ?? `tmux control client exited (${signal ?? code})`;
        const why = stderr.trim() || this.closedReason || silentExit;
        this.close(why);
        reject(new TmuxError(why));
      });
      // Commands typed before the client is attached to its session fail with "no current
      // client" (seen ~1 in 40 fresh starts under load): wait for tmux to say we are attached.
      const attached = (n: Notification) => {
        if (n.kind !== "other" || n.name !== "session-changed") return;
        this.off("notification", attached);
        // The first reply proves the server answers our commands.
        this.command("display-message -p '#{pid}'").then(() => resolve(), reject);
      };
      this.on("notification", attached);
    });
  }

  command(command: string): Promise<string[]> {
    if (!this.child || this.closedReason !== null) {
      return Promise.reject(new TmuxGoneError(this.closedReason ?? "not started"));
    }
    if (command.includes("\n")) return Promise.reject(new TmuxError("a tmux command cannot contain a newline", command));
    return new Promise((resolve, reject) => {
      this.queue.push({ command, resolve, reject });
      this.child!.stdin.write(command + "\n");
    });
  }

  /** Detaches by closing stdin; the tmux server and its panes live on. */
  async stop(): Promise<void> {
    const child = this.child;
    if (!child || this.closedReason !== null) return;
    await new Promise<void>((resolve) => {
      child.once("exit", () => resolve());
      child.stdin.end();
      setTimeout(() => {
        child.kill("SIGTERM");
        resolve();
      }, 1000).unref();
    });
  }

  private settle(reply: Reply): void {
    const pending = this.queue.shift();
    if (!pending) return;
    // Synchronous, in stream order with "notification": tells which output preceded this reply.
    this.emit("reply", pending.command);
    if (reply.ok) pending.resolve(reply.lines);
    else pending.reject(new TmuxError(reply.lines.join("\n") || "tmux command failed", pending.command));
  }

  private notify(notification: Notification): void {
    if (notification.kind === "exit") {
      // A bare "%exit" is what kill-server (or the server's end) sends: no word to pass on.
      this.close(notification.reason);
      return;
    }
    this.emit("notification", notification);
  }

  private close(reason: string): void {
    if (this.closedReason !== null) return;
    this.closedReason = reason;
    const failed = this.queue;
    this.queue = [];
    for (const pending of failed) pending.reject(new TmuxGoneError(reason));
    this.emit("closed", reason);
  }
}
