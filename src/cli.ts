#!/usr/bin/env -S node --max-semi-space-size=4 --optimize-for-size
// The `termhive` command.
//
// --max-semi-space-size=4 (MB): V8's young generation otherwise grows to 32 MB during the
// first big outputs and stays resident for the server's life; capped, the server peaks
// ~25 MB lower through `seq 1 200000` ×5. At 1 MB a flood cost ~280 scavenges per 32 MB
// (~0.9 s of CPU per 100 MB, a third of the server's work); at 4 MB ~60, for ~2 MB more
// peak.
// --optimize-for-size: V8 grows the old generation by smaller steps and collects sooner. A
// server following many busy sessions promotes much short-lived garbage (a run's objects live
// as long as the run, ~1 s under load); with V8's default growing factors its RSS rose from
// ~100 to 240-265 MB in a 5-minute soak (2 processes × 33 sessions) around a live heap of
// ~47 MB, and had not levelled off. With the flag it stays flat in the same soak.
// The flags only apply when the file is run as a program (npx termhive, the bin);
// `node cli.js` skips them.
import { Command, CommanderError } from "commander";
import { spawnSync } from "node:child_process";
import { loadConfig, ConfigError } from "./config.js";
import { PANE_COMMANDS } from "./cli/pane-commands.js";
import { enableLinearRegexFallback } from "./util/regex.js";
import { VERSION } from "./version.js";
import { answerEarlyDiscover } from "./mcp/stdio/early-discover.js";

enableLinearRegexFallback();

async function tmuxStatus(configured: string): Promise<string | null> {
  const { findTmux } = await import("./backends/find-tmux.js");
  const tmuxPath = findTmux(configured);
  const probe = tmuxPath ? spawnSync(tmuxPath, ["-V"], { encoding: "utf8" }) : null;
  return probe?.status === 0 ? `${probe.stdout.trim()} (${tmuxPath})` : null;
}

/** `explain`: say how to connect a client even when stdin is no terminal (`npm start` in a script). */
async function mcpCommand(explain: boolean): Promise<void> {
  const config = loadConfig();
  (await import("./util/crash-policy.js")).installCrashPolicy("mcp", config);
  // On stderr: stdout is the protocol's.
  if (process.stdin.isTTY || explain) {
    const tmux = await tmuxStatus(config.tmuxPath);
    process.stderr.write(
      [
        `termhive ${VERSION}: an MCP server speaking over stdio — a client starts it, you don't type to it.`,
        `Register it with Claude Code:   claude mcp add -s user termhive -- ${process.argv[1]} mcp`,
        `(once published to npm, also:  claude mcp add -s user termhive -- npx termhive mcp)`,
        `State: ${config.home}`,
        tmux
          ? `Backend: ${tmux} (sessions survive restarts; watch with tmux attach)`
          : `tmux is missing: install it (apt-get install -y tmux). Without it sessions cannot survive a restart of termhive and cannot be attached to.`,
        `Waiting for an MCP client on stdin (Ctrl-C to quit).`,
        "",
      ].join("\n"),
    );
  }
  // A required tmux that is missing stops the server now, as it did when the root was
  // composed at start (the root below comes later, maybe after stdin has closed).
  (await import("./backends/find-tmux.js")).requireTmuxWhenAsked(config);
  // A 2026 client's discover probe is answered without the SDK and zod (most of a start):
  // stdin's first line is read from now on, between the loading steps below (issue 34 §5).
  const early = process.stdin.isTTY ? Promise.resolve({ answered: false, input: process.stdin }) : answerEarlyDiscover(process.stdin, (text) => void process.stdout.write(text), config.mcpEra, config.toolFamilies);
  // Before any schema exists (the SDK builds its own at load): zod otherwise compiles a
  // parser per object schema with new Function on first use: ~8 ms for the first message,
  // while the interpreted parse of messages this small is no slower (17 µs vs 19 µs each).
  // Loaded here, not at the top: the stdio server needs neither gRPC nor the HTTP door.
  // The root (services, hive, backend) is composed just after the first tool list is
  // answered: a client's first answers wait for neither its import nor its start.
  const loading = (async () => {
    (await import("zod")).config({ jitless: true });
    return Promise.all([import("./mcp/server.js"), import("./mcp/stdio/deferred-root.js")]);
  })();
  loading.catch(() => undefined); // awaited below, after the first line
  const opening = await early;
  const [{ serveStdio }, { DeferredRoot }] = await loading;
  const root = new DeferredRoot(async () => {
    const composed = (await import("./service/root.js")).composeRoot(config);
    composed.crew.followHive(); // notifications (when configured) follow the hive from now on
    (await import("./serve/host-door.js")).followHostAsks(composed); // host panes' in-pane termhive
    return composed;
  });
  const stop = async () => {
    await root.dispose().catch(() => undefined); // exiting anyway: nothing left to report to
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  await serveStdio(config, root, { input: opening.input, answeredDiscover: opening.answered });
  await stop();
}

const program = new Command();
program.name("termhive").description("Persistent terminal sessions and agent teams for AI agents").version(VERSION);
// Usage errors (unknown verb or option, missing or invalid argument) are thrown to main()
// rather than exiting inside commander, so they end with status 2 like other Unix tools, and
// are printed as one line. Subcommands made with .command() inherit both settings.
program.exitOverride();
program.configureOutput({
  outputError: (message, write) => write(`termhive: ${message.replace(/^error: /, "").replace(/\s*\n\s*/g, " ").trim()}\n`),
});
program.command("mcp").description("serve MCP over stdio (what an MCP client runs)").action(() => mcpCommand(false));
program.command("start").description("same as mcp, first explaining (on stderr) how to connect a client").action(() => mcpCommand(true));

async function main(): Promise<void> {
  const verb = process.argv[2];
  // The other verbs pull in the gRPC client and the HTTP door (~20 MB); an MCP client's
  // server process (mcp/start) never loads them.
  if (verb === "hook") {
    // Runs inside an agent's turn (Claude Code's hooks, Codex's notify), whose end the hive
    // reports from it: only the hook command and the hive store are loaded (under load the
    // full CLI took ~2 s longer to start, past the turn's end by that much).
    const { registerHook } = await import("./cli/hook.js");
    registerHook(program);
  } else if (verb !== undefined && PANE_COMMANDS.includes(verb)) {
    // termhive msg / inbox / status, run in an agent's pane (by its hooks too, every turn):
    // only their door and the hive store are loaded, never the engine, tmux or gRPC.
    const { registerPaneVerbs } = await import("./cli/pane-verbs.js");
    registerPaneVerbs(program);
  } else if (verb !== "mcp" && verb !== "start") {
    const { registerCliVerbs } = await import("./cli/index.js");
    const { registerPaneVerbs } = await import("./cli/pane-verbs.js");
    registerCliVerbs(program);
    registerPaneVerbs(program);
  }
  await program.parseAsync(process.argv);
}

/** 0 for --help/--version, 2 for a usage error (commander already printed its line), 1 otherwise. */
main().catch((error: unknown) => {
  if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : 2);
  // A ConfigError (bad TERMHIVE_*, tmux missing) or anything unexpected: one line, exit 1;
  // the stack only when asked for (an unexpected error's stack is for a bug report).
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`termhive: ${message.replace(/\s*\n\s*/g, " ").trim()}\n`);
  if (process.env.TERMHIVE_DEBUG === "1" && !(error instanceof ConfigError) && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
