// Clean-up verbs: `termhive close <session> | --all` and `termhive reset` (stop the tmux server).
import type { Command } from "commander";
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline/promises";
import { findTmux } from "../backends/find-tmux.js";
import { stopServe, stoppedText } from "./serve-stop.js";
import { SIGNAL_WINDOW } from "../backends/tmux/config.js";
import { loadConfig } from "../config.js";
import { ToolError } from "../service/errors.js";
import terminalClose from "../verbs/terminal-close.js";
import { print } from "./output.js";
import { withEngine } from "./session-verbs.js";

type Opts = { json?: boolean; force?: boolean; all?: boolean; yes?: boolean };

async function closeAll(json: boolean | undefined): Promise<void> {
  const r = await withEngine(json, async (e) => {
    const { sessions } = await e.ops.list();
    const closed: string[] = [];
    for (const s of sessions) {
      try {
        await e.ops.close({ session: s.session, force: true });
        closed.push(s.name);
      } catch (error) {
        // Another termhive process closed it between the list and now: already done.
        if (!(error instanceof ToolError && error.code === "not_found")) throw error;
      }
    }
    return { closed: closed.length, names: closed };
  });
  print(json, r, () => (r.closed ? `closed ${r.closed} session${r.closed === 1 ? "" : "s"}: ${r.names.join(", ")}` : "no sessions to close"));
}

async function confirmed(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(question)).trim());
  } finally {
    rl.close();
  }
}

export function registerCleanupVerbs(program: Command): void {
  program
    .command("close")
    .description("close a session, or every session with --all")
    .argument("[session]", "session id or name")
    .option("-a, --all", "close every termhive session of this TERMHIVE_HOME (running commands are killed)")
    .option("-f, --force", "close even if a command is running")
    .option("--json", "print JSON")
    .action(async (session: string | undefined, o: Opts, command: Command) => {
      if (o.all && session !== undefined) command.error("give a session or --all, not both", { exitCode: 2 });
      if (o.all) return closeAll(o.json);
      if (session === undefined) command.error("missing required argument 'session' (or --all)", { exitCode: 2 });
      const r = await withEngine(o.json, (e) => e.ops.close({ session, force: o.force }), session);
      print(o.json, r, () => terminalClose.text(r));
    });

  program
    .command("reset")
    .description("stop this TERMHIVE_HOME's tmux server: every session and what runs in it ends (asks first on a terminal)")
    .option("-y, --yes", "do not ask")
    .option("--json", "print JSON")
    .action(async (o: Opts, command: Command) => {
      const config = loadConfig();
      const socket = join(config.home, "tmux.sock");
      const tmux = findTmux(config.tmuxPath);
      const panes = tmux && existsSync(socket) ? spawnSync(tmux, ["-S", socket, "list-windows", "-a", "-F", "#{window_name}"], { encoding: "utf8" }) : undefined;
      if (!tmux || panes?.status !== 0) {
        // The background serve (termhive dashboard's) goes too: a reset leaves nothing running.
        const serve = await stopServe(config.home);
        print(o.json, { stopped: false, sessions: 0, serve_stopped: serve !== undefined }, () =>
          `no tmux server is running for ${config.home}${serve ? `; ${stoppedText(config.home, serve)}` : ""}`);
        return;
      }
      const count = panes.stdout.split("\n").filter((w) => w && w !== SIGNAL_WINDOW).length;
      if (!o.yes) {
        // Never stop a server nobody agreed to stop: a script must say --yes.
        if (!process.stdin.isTTY) command.error("reset stops every session; on no terminal, pass --yes to confirm", { exitCode: 2 });
        if (!(await confirmed(`Stop the tmux server of ${config.home} and its ${count} session${count === 1 ? "" : "s"}? [y/N] `))) {
          process.stderr.write("termhive: nothing stopped\n");
          process.exitCode = 1;
          return;
        }
      }
      // The serve first: it would start a fresh tmux server on its next call.
      const serve = await stopServe(config.home);
      const killed = spawnSync(tmux, ["-S", socket, "kill-server"], { encoding: "utf8" });
      if (killed.status !== 0) throw new Error(`tmux kill-server failed: ${(killed.stderr || "").trim()}`);
      print(o.json, { stopped: true, sessions: count, serve_stopped: serve !== undefined }, () =>
        `stopped the tmux server of ${config.home} (${count} session${count === 1 ? "" : "s"} ended)${serve ? `; ${stoppedText(config.home, serve)}` : ""}`);
    });
}
