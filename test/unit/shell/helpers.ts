// Test helper: start a REAL bash/zsh/fish with termhive's integration inside a
// pseudo-terminal, type into it, and parse the OSC sequences it prints.
// Every wait is on an event (a marker, a text match), never a fixed sleep; each wait
// has a deadline so a broken script fails a test instead of hanging it.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { spawnSync } from "node:child_process";
import pty from "@lydell/node-pty";
import { integrationLaunch, type ShellKind } from "../../../src/shell/integration.js";
import { removeTempFolder, tempFolder } from "../../temp-folder.js";

export type Shell = Exclude<ShellKind, "other">;
export const SHELLS: Shell[] = ["bash", "zsh", "fish"];

/** Absolute path of an installed shell, or undefined (the shell's tests are then skipped). */
export function shellPath(name: string): string | undefined {
  const r = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  const p = r.stdout.trim();
  return r.status === 0 && p.startsWith("/") ? p : undefined;
}

/** One OSC sequence seen in the output. */
export interface Osc {
  /** "133", "633", "7", … */
  code: string;
  /** Everything after "<code>;" (e.g. "D;1", "A", "E;echo hi", "file://host/tmp"). */
  data: string;
  /** Offset in the decoded output text where the sequence started. */
  at: number;
}

/**
 * A tiny streaming OSC parser: finds ESC ] … (BEL | ESC \) and keeps the rest of the
 * text. Chunks may split a sequence anywhere, so unfinished input is kept for later.
 */
export class OscParser {
  readonly events: Osc[] = [];
  text = "";
  private pending = "";

  feed(chunk: string): Osc[] {
    const found: Osc[] = [];
    let s = this.pending + chunk;
    this.pending = "";
    for (;;) {
      const start = s.indexOf("\x1b]");
      if (start < 0) {
        // Keep a trailing lone ESC: it may start a sequence in the next chunk.
        if (s.endsWith("\x1b")) {
          this.text += s.slice(0, -1);
          this.pending = "\x1b";
        } else this.text += s;
        break;
      }
      this.text += s.slice(0, start);
      const bel = s.indexOf("\x07", start + 2);
      const st = s.indexOf("\x1b\\", start + 2);
      let end = -1;
      let termLen = 0;
      if (bel >= 0 && (st < 0 || bel < st)) {
        end = bel;
        termLen = 1;
      } else if (st >= 0) {
        end = st;
        termLen = 2;
      }
      if (end < 0) {
        this.pending = s.slice(start);
        break;
      }
      const body = s.slice(start + 2, end);
      const semi = body.indexOf(";");
      const osc: Osc = {
        code: semi < 0 ? body : body.slice(0, semi),
        data: semi < 0 ? "" : body.slice(semi + 1),
        at: this.text.length,
      };
      this.events.push(osc);
      found.push(osc);
      s = s.slice(end + termLen);
    }
    return found;
  }
}

/** "A" | "B" | "C" | "D" | "E" | "7" — the short name tests match on. */
export function kindOf(e: Osc): string {
  if (e.code === "133") return e.data.split(";")[0] ?? "";
  if (e.code === "633") return e.data.split(";")[0] ?? "";
  return e.code;
}

/** Decodes OSC 633;E's escaping (\\ → \, \xNN → byte) back to the command line. */
export function unescapeCmdline(s: string): string {
  return s.replace(/\\(\\|x([0-9a-fA-F]{2}))/g, (_m, a: string, hex: string | undefined) =>
    hex ? String.fromCharCode(parseInt(hex, 16)) : a,
  );
}

export interface StartOptions {
  /** Files to create in the temporary HOME, path (relative to HOME) → content. */
  files?: Record<string, string>;
  env?: Record<string, string>;
  login?: boolean;
  cwd?: string;
}

export class ShellSession {
  readonly parser = new OscParser();
  private waiters: Array<() => void> = [];
  private exited: number | undefined;
  raw = "";

  private constructor(
    readonly kind: Shell,
    readonly home: string,
    private readonly term: pty.IPty,
  ) {
    term.onData((d) => {
      this.raw += d;
      this.parser.feed(d);
      this.wake();
    });
    term.onExit(({ exitCode }) => {
      this.exited = exitCode;
      this.wake();
    });
  }

  /** Starts the shell the way termhive would, in a fresh temporary HOME. */
  static async start(kind: Shell, opts: StartOptions = {}): Promise<ShellSession> {
    const path = shellPath(kind);
    if (!path) throw new Error(`${kind} is not installed`);
    const home = tempFolder(`termhive-${kind}-`);
    for (const [rel, content] of Object.entries(opts.files ?? {})) {
      const file = join(home, rel);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, content);
    }
    const baseEnv: Record<string, string> = {
      PATH: process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
      HOME: home,
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      USER: process.env.USER ?? "root",
      ...opts.env,
    };
    const launch = integrationLaunch(path, { stateDir: home, login: opts.login, baseEnv });
    const [file, ...args] = launch.argv;
    const term = pty.spawn(file!, args, {
      name: "xterm-256color",
      cols: 200,
      rows: 50,
      cwd: opts.cwd ?? home,
      env: { ...baseEnv, ...launch.env },
    });
    const s = new ShellSession(kind, home, term);
    await s.waitFor((e) => kindOf(e) === "B", 0, 15000, "first prompt (B)");
    return s;
  }

  get events(): Osc[] {
    return this.parser.events;
  }

  /** Index of the next event: pass it to waitFor / between to look only at what follows. */
  mark(): number {
    return this.parser.events.length;
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    for (const w of ws) w();
  }

  private changed(deadline: number): Promise<boolean> {
    return new Promise((resolve) => {
      const left = deadline - Date.now();
      if (left <= 0) return resolve(false);
      // The timer is only the deadline of a wait, not the thing waited on.
      const t = setTimeout(() => resolve(false), left);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve(true);
      });
    });
  }

  /** Waits for the first event at index ≥ from that matches; returns its index. */
  async waitFor(pred: (e: Osc) => boolean, from: number, timeoutMs = 10000, what = "event"): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const ev = this.parser.events;
      for (let i = from; i < ev.length; i++) if (pred(ev[i]!)) return i;
      if (this.exited !== undefined) throw new Error(`${this.kind} exited (${this.exited}) waiting for ${what}\n${this.dump()}`);
      if (!(await this.changed(deadline))) throw new Error(`timeout waiting for ${what} in ${this.kind}\n${this.dump()}`);
    }
  }

  /** Waits until the plain (OSC-free) output contains `needle` after text offset `fromText`. */
  async waitText(needle: string | RegExp, fromText = 0, timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const t = this.parser.text.slice(fromText);
      if (typeof needle === "string" ? t.includes(needle) : needle.test(t)) return;
      if (this.exited !== undefined) throw new Error(`${this.kind} exited waiting for ${String(needle)}\n${this.dump()}`);
      if (!(await this.changed(deadline))) throw new Error(`timeout waiting for ${String(needle)} in ${this.kind}\n${this.dump()}`);
    }
  }

  /**
   * Waits until `name` is the terminal's foreground process. A Ctrl-C sent right after
   * C can reach the shell before it has handed the terminal to the new command (the
   * shell then ignores it), so tests that interrupt a command wait for this first.
   * node-pty has no event for it, so this polls, with a deadline.
   */
  async waitForeground(name: string, timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.term.process !== name) {
      if (Date.now() > deadline) throw new Error(`${name} never became the foreground process (${this.term.process})`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  write(data: string): void {
    this.term.write(data);
  }

  /**
   * Types `line` + Enter, waits for the command's D and then for the next prompt's B
   * (so the shell is idle again). Returns the events of that command, from the first
   * event after typing to the B of the next prompt.
   */
  async run(line: string, timeoutMs = 10000): Promise<CommandResult> {
    const from = this.mark();
    this.write(line + "\r");
    const d = await this.waitFor((e) => kindOf(e) === "D", from, timeoutMs, `D after ${JSON.stringify(line)}`);
    const b = await this.waitFor((e) => kindOf(e) === "B", d + 1, timeoutMs, `prompt after ${JSON.stringify(line)}`);
    return new CommandResult(this.events.slice(from, b + 1), this.parser.text);
  }

  /**
   * Waits until the line editor reads keys after the latest prompt: bash (readline) and zsh
   * (zle) turn bracketed paste on (ESC[?2004h) as they start reading a line. A Ctrl-C that lands
   * before that, while precmd hooks still run, is consumed without a fresh prompt.
   */
  async editorReading(timeoutMs = 10000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      // bash turns it on before drawing the prompt, zsh after: both after the last command's D.
      const lastEnd = this.raw.lastIndexOf("\x1b]133;D");
      if (this.raw.lastIndexOf("\x1b]133;B") > lastEnd && this.raw.lastIndexOf("\x1b[?2004h") > lastEnd) return;
      if (this.exited !== undefined) throw new Error(`${this.kind} exited waiting for its line editor\n${this.dump()}`);
      if (!(await this.changed(deadline))) throw new Error(`timeout waiting for the line editor in ${this.kind}\n${this.dump()}`);
    }
  }

  /** Sends input that should NOT run a command (empty Enter, Ctrl-C at a prompt) and waits for the next prompt. */
  async toPrompt(data: string, timeoutMs = 10000): Promise<Osc[]> {
    const from = this.mark();
    this.write(data);
    // bash's readline, given SIGINT at a moment it is not reading a key, redraws nothing and
    // leaves the interrupt pending until the next key (src/terminal/typing/prompt-line.ts):
    // as termhive does, a second Ctrl-C after 2 s is taken. Nothing is retried for other input.
    const b = data === "\x03" && this.kind === "bash"
      ? await this.waitFor((e) => kindOf(e) === "B", from, 2000, "prompt").catch(() => {
          this.write(data);
          return this.waitFor((e) => kindOf(e) === "B", from, timeoutMs, `prompt after ${JSON.stringify(data)} twice`);
        })
      : await this.waitFor((e) => kindOf(e) === "B", from, timeoutMs, `prompt after ${JSON.stringify(data)}`);
    return this.events.slice(from, b + 1);
  }

  dump(): string {
    const tail = this.raw.slice(-3000);
    return "--- last output ---\n" + JSON.stringify(tail) + "\n--- events ---\n" + this.events.slice(-30).map((e) => `${e.code};${e.data}`).join("\n");
  }

  async close(): Promise<void> {
    if (this.exited === undefined) {
      this.term.kill("SIGKILL");
      const deadline = Date.now() + 3000;
      while (this.exited === undefined && (await this.changed(deadline)));
    }
    removeTempFolder(this.home);
  }
}

export class CommandResult {
  /** `events` of one command; `text` is the session's whole OSC-free output so far. */
  constructor(
    readonly events: Osc[],
    private readonly text: string,
  ) {}

  kinds(): string[] {
    return this.events.map(kindOf);
  }

  count(kind: string): number {
    return this.kinds().filter((k) => k === kind).length;
  }

  /** Exit status from the (single) D. */
  get exit(): number {
    const d = this.events.find((e) => kindOf(e) === "D");
    if (!d) throw new Error("no D");
    return Number(d.data.split(";")[1]);
  }

  /** The command line from OSC 633;E, unescaped, or undefined. */
  get cmdline(): string | undefined {
    const e = this.events.find((x) => x.code === "633" && x.data.startsWith("E;"));
    return e ? unescapeCmdline(e.data.slice(2)) : undefined;
  }

  /** Last reported cwd (OSC 7), decoded. */
  get cwd(): string | undefined {
    const e = [...this.events].reverse().find((x) => x.code === "7");
    if (!e) return undefined;
    return decodeURIComponent(new URL(e.data).pathname);
  }

  /** Text printed between C and D: the command's own output. */
  get output(): string {
    const c = this.events.find((e) => kindOf(e) === "C");
    const d = this.events.find((e) => kindOf(e) === "D");
    return c && d ? this.text.slice(c.at, d.at) : "";
  }
}
