import { z } from "zod";
import { int, seconds } from "./cli-args.js";
import { session } from "./schemas/terminal.js";
import { RUNS, defineVerb } from "./verb.js";

const runInput = {
  session: session.optional().describe(
    "Session id or name. Without it: a throwaway shell in your folder (or cwd), closed when done.",
  ),
  command: z.string().min(1).max(1_000_000).describe("Command line to run (multi-line allowed)."),
  cwd: z.string().max(4096).optional().describe("Folder for the throwaway shell."),
  timeout_s: z.number().min(0.1).max(3600).default(30).describe("Seconds to wait (default 30)."),
  until: z.string().max(2000).optional().describe("Regex: return once the output matches."),
  max_tokens: z.number().int().min(50).max(200_000).optional().describe("Output budget (default 2000); longer is folded."),
  raw: z.boolean().optional().describe("Keep escape codes; no reduction."),
  reduce: z.boolean().optional().describe("false: no per-command summary."),
  confirm: z.boolean().optional().describe("Run even if the safety gate flags it."),
};

type RunText = {
  output: string; exit_code: number | null; complete: boolean; reason: string; running?: boolean; duration_ms: number; tokens: number; raw_tokens: number; hint?: string; prompt?: string;
  session_name?: string; session_closed?: boolean; session_ended?: { exit_status: number | null; signal: number | null };
};

/** What the run left behind, in words: a pager still open is not "done", nor is a program waiting at its prompt. */
function statusOf(r: RunText): string {
  if (r.reason === "waiting_for_input") return "waiting for input";
  if (r.reason === "nested-prompt") return r.running ? `${r.prompt ?? "the program"} is waiting at its prompt` : `done, back at the ${r.prompt ?? "program's"} prompt`;
  if (r.reason === "fullscreen" && r.running) return "still running, full screen";
  return r.complete ? (r.exit_code === null ? "done" : `exit ${r.exit_code}`) : "still running";
}

function formatRun(r: RunText): string {
  const end = r.session_ended;
  const ended = end ? ` · session ended (${end.signal !== null ? `signal ${end.signal}` : end.exit_status !== null ? `exit ${end.exit_status}` : "status unknown"})` : "";
  const status = statusOf(r) + ended;
  const where = r.session_name === undefined ? "" : ` · throwaway session ${r.session_name} ${r.session_closed ? "closed" : "kept"}`;
  // A nested prompt's name is said in the status.
  const prompt = r.prompt && r.reason !== "nested-prompt" ? ` (${r.prompt})` : "";
  const footer = `[${status} · ${r.reason}${prompt} · ${r.duration_ms} ms · ${r.tokens} tokens${r.raw_tokens > r.tokens ? ` of ${r.raw_tokens}` : ""}${where}]`;
  return [r.output, footer, r.hint].filter((part) => part !== undefined && part !== "").join("\n");
}

export default defineVerb({
  name: "terminal_run",
  title: "Run a command and wait for it",
  description:
    "Run a command in a session and wait until it finishes; also inside REPLs (python, node, psql) and ssh. Returns output (cleaned, folded when long), exit code and reason: osc133, incomplete (nothing ran), exit, until, nested-prompt (REPL prompt back), waiting_for_input (a question) and fullscreen (vim/less): go on with terminal_send; idle, timeout (still running: terminal_wait).",
  input: runInput,
  family: "terminal",
  annotations: RUNS,
  run: (s, input, ctx) => s.terminal.run(input, ctx),
  text: formatRun,
  grpc: "Run",
  nullable: { exit_code: true, "session_ended.exit_status": true, "session_ended.signal": true },
  cli: {
    command: "run",
    args: [["<session>", "session id or name"], ["<command...>", "command line"]],
    description: "run a command in a session and wait for it (exit status: the command's; 124 if still running)",
    options: [
      ["-t, --timeout <s>", "seconds to wait", seconds],
      ["--until <regex>", "return when the output matches"],
      ["--max-tokens <n>", "token budget of the output", int],
      ["--raw", "keep escape codes"],
      ["--confirm", "run even if the safety gate flags it"],
    ],
    input: ([session, command]: [string, string[]], o) => ({
      session,
      command: command.join(" "),
      timeout_s: o.timeout as number | undefined,
      until: o.until as string | undefined,
      max_tokens: o.maxTokens as number | undefined,
      raw: o.raw as boolean | undefined,
      confirm: o.confirm as boolean | undefined,
    }),
    exitCode: (r) => (!r.complete ? 124 : (r.exit_code ?? 0)),
    speak: true,
  },
});
