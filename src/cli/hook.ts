// `termhive hook <event> [payload] --status <s> [--agent <name>]`: what an agent program's own
// hooks run (agent_spawn configures them, see hive/programs/hooks.ts). Claude Code passes the hook's
// JSON payload on stdin, Codex's notify as the last argument. The status is stored with source
// "hook" in the hive store directly (no server needed); servers follow the store.
//
// Rules a hook command must keep: nothing on stdout (Claude Code adds a UserPromptSubmit
// hook's stdout to the prompt), and never exit 2 (that blocks the prompt or the stop): a
// failure is one line on stderr and exit 1, which the program shows as a warning and ignores.
// The one exception is `PermissionRequest --wait <s>`: it holds the request open in the hive
// (hive/programs/permission-asks.ts) and, when hive_answer decides it in time, prints Claude Code's own
// decision JSON; when nobody does, it prints nothing and the program shows its dialog.
import type { Command } from "commander";
import { Hive, HiveError, applyHookReport, holdPermission, hookChannelOf, hookOutcome, isCodexMainThread, noteHookConversation, parseHookPayload, promptDigest as promptDigestOf } from "../hive/index.js";
import { loadConfig } from "../config.js";
import { RELAY_ENV, writeRelayRequest } from "../sandbox/relay.js";

const STDIN_TIMEOUT_MS = 2000;

/** The payload on stdin, when stdin is a pipe (a person running it by hand has a tty: nothing to read). */
async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) return "";
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = () => {
      clearTimeout(timer);
      process.stdin.pause();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    // A program that never closes the pipe must not hold its own hook: take what came.
    const timer = setTimeout(done, STDIN_TIMEOUT_MS);
    process.stdin.on("data", (c: Buffer) => chunks.push(c));
    process.stdin.on("end", done);
    process.stdin.on("error", done);
  });
}

async function runHook(event: string, payloadArg: string | undefined, options: { status?: string; agent?: string; wait?: string }): Promise<void> {
  if (!options.status) throw new HiveError("invalid", "termhive hook needs --status <working|idle|waiting_for_input|error|exited>");
  const payload = parseHookPayload(payloadArg ?? (await readStdin()));
  const outcome = hookOutcome(event, options.status, payload, { isMainThread: (id) => isCodexMainThread(id) });
  if ("ignored" in outcome) return;
  const name = options.agent ?? process.env.TERMHIVE_AGENT;
  if (!name) throw new HiveError("unknown", "no agent for this hook: pass --agent <name> (or run it in an agent's pane)");
  // When the program ran this hook: the process's start, not now (starting it takes a while).
  const firedAt = Date.now() - Math.round(process.uptime() * 1000);
  const channel = hookChannelOf(payload);
  // The text the program took, for a delivery waiting on its word (hive/store/prompt-reports.ts).
  const promptDigest = event === "UserPromptSubmit" && typeof payload.prompt === "string" ? { promptDigest: promptDigestOf(payload.prompt) } : {};
  const relay = process.env[RELAY_ENV];
  if (relay) {
    // Inside a sandbox the store is out of reach: the server following this pane applies it (sandbox/relay.ts).
    writeRelayRequest(relay, { kind: "hook", event, status: outcome.status, detail: outcome.detail ?? null, endsTurn: outcome.endsTurn === true, firedAt, ...(channel ? { channel } : {}), ...promptDigest });
    return;
  }
  const hive = Hive.open({ home: loadConfig().home });
  try {
    noteHookConversation(hive, name, payload);
    const waitS = options.wait === undefined ? 0 : Number(options.wait);
    if (event === "PermissionRequest" && Number.isInteger(waitS) && waitS > 0) {
      const decision = await holdPermission(hive, name, payload, waitS);
      if (decision) process.stdout.write(decision);
      return;
    }
    applyHookReport(hive, name, { event, status: outcome.status, detail: outcome.detail ?? null, endsTurn: outcome.endsTurn === true, firedAt, channel, ...promptDigest });
  } finally {
    hive.close();
  }
}

export function registerHook(program: Command): void {
  program
    .command("hook <event> [payload]")
    .description("record a status reported by an agent program's hook (payload: JSON argument, else stdin)")
    .option("--status <status>", "the status this event means: working | idle | waiting_for_input | error | exited")
    .option("--agent <name>", "agent name (default: TERMHIVE_AGENT of the pane)")
    .option("--wait <seconds>", "PermissionRequest: hold the request open this long for hive_answer, printing its decision")
    .action(async (event: string, payload: string | undefined, options: { status?: string; agent?: string; wait?: string }) => {
      try {
        await runHook(event, payload, options);
      } catch (error) {
        process.stderr.write(`termhive hook: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ")}\n`);
        process.exitCode = 1;
      }
    });
}
