// `termhive hook <event> [payload] --status <s> [--agent <name>]`: what an agent program's own
// hooks run (agent_spawn configures them, see hive/hooks.ts). Claude Code passes the hook's
// JSON payload on stdin, Codex's notify as the last argument. The status is stored with source
// "hook" in the hive store directly (no server needed); servers follow the store.
//
// Rules a hook command must keep: nothing on stdout (Claude Code adds a UserPromptSubmit
// hook's stdout to the prompt), and never exit 2 (that blocks the prompt or the stop): a
// failure is one line on stderr and exit 1, which the program shows as a warning and ignores.
import type { Command } from "commander";
import { CONVERSATION_ID, Hive, HiveError, hookIsStale, hookOutcome, isCodexMainThread, parseHookPayload } from "../hive/index.js";
import { loadConfig } from "../config.js";

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

/** Claude Code's `session_id` (every hook payload), Codex's `thread-id` (notify); ids of any other shape are not kept. */
function conversationIdOf(payload: Record<string, unknown>): string | undefined {
  const id = payload.session_id ?? payload["thread-id"];
  return typeof id === "string" && CONVERSATION_ID.test(id) ? id : undefined;
}

async function runHook(event: string, payloadArg: string | undefined, options: { status?: string; agent?: string }): Promise<void> {
  if (!options.status) throw new HiveError("invalid", "termhive hook needs --status <working|idle|waiting_for_input|error|exited>");
  const payload = parseHookPayload(payloadArg ?? (await readStdin()));
  const outcome = hookOutcome(event, options.status, payload, { isMainThread: (id) => isCodexMainThread(id) });
  if ("ignored" in outcome) return;
  const name = options.agent ?? process.env.TERMHIVE_AGENT;
  if (!name) throw new HiveError("unknown", "no agent for this hook: pass --agent <name> (or run it in an agent's pane)");
  // When the program ran this hook: the process's start, not now (starting it takes a while).
  const firedAt = Date.now() - Math.round(process.uptime() * 1000);
  const hive = Hive.open({ home: loadConfig().home });
  try {
    // The program's own conversation id, for agent_restore (hive/restore-records.ts).
    const conversation = conversationIdOf(payload);
    if (conversation !== undefined) hive.launches.noteConversation(name, conversation);
    // An end reported for a turn older than the message termhive typed since: not this turn's end.
    if (outcome.status === "idle" && hookIsStale(hive.turns.get(name), firedAt)) return;
    hive.agents.setStatus(name, outcome.status, { detail: outcome.detail, source: "hook" });
    if (outcome.endsTurn) hive.turns.cancel([name]);
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
    .action(async (event: string, payload: string | undefined, options: { status?: string; agent?: string }) => {
      try {
        await runHook(event, payload, options);
      } catch (error) {
        process.stderr.write(`termhive hook: ${(error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, " ")}\n`);
        process.exitCode = 1;
      }
    });
}
