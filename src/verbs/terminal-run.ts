import { z } from "zod";
import { int, seconds } from "./cli-args.js";
import { session } from "./schemas/terminal.js";
import { defineVerb } from "./verb.js";

const runInput = {
  session: session.optional().describe(
    "Session id or name (see terminal_list). Without it the command runs in a throwaway shell in your folder (or cwd), closed once the command finishes; kept, and named in the result, if it is still running.",
  ),
  command: z.string().min(1).max(1_000_000).describe("Command line to run (multi-line allowed)."),
  cwd: z.string().max(4096).optional().describe("Working directory of the throwaway session (only without session; default: your folder)."),
  timeout_s: z.number().min(0.1).max(3600).default(30).describe("Seconds to wait (default 30). On timeout the command keeps running."),
  until: z.string().max(2000).optional().describe("Regex: return as soon as the command's output matches it."),
  max_tokens: z.number().int().min(50).max(200_000).optional().describe("Token budget of the output (default 2000); longer output is folded."),
  raw: z.boolean().optional().describe("Keep escape codes; no reduction."),
  reduce: z.boolean().optional().describe("false: no per-command reducer (default true)."),
  confirm: z.boolean().optional().describe("Run even though the safety gate flags the command."),
};

function formatRun(r: {
  output: string; exit_code: number | null; complete: boolean; reason: string; duration_ms: number; tokens: number; raw_tokens: number; hint?: string; prompt?: string;
  session_name?: string; session_closed?: boolean;
}): string {
  const status = r.complete ? (r.exit_code === null ? "done" : `exit ${r.exit_code}`) : "still running";
  const where = r.session_name === undefined ? "" : ` · throwaway session ${r.session_name} ${r.session_closed ? "closed" : "kept"}`;
  const footer = `[${status} · ${r.reason}${r.prompt ? ` (${r.prompt})` : ""} · ${r.duration_ms} ms · ${r.tokens} tokens${r.raw_tokens > r.tokens ? ` of ${r.raw_tokens}` : ""}${where}]`;
  return [r.output, footer, r.hint].filter((part) => part !== undefined && part !== "").join("\n");
}

export default defineVerb({
  name: "terminal_run",
  title: "Run a command and wait for it",
  description:
    "Type a command into a session and wait until it finishes. Returns only the command's own output (cleaned, folded when long), the exit code, and why it counted as complete: osc133 (shell reported the end), incomplete (the shell needs more of the line, e.g. an unclosed quote: nothing ran, the line was cancelled), exit, until (your regex), nested-prompt (a REPL/remote prompt is back), fullscreen (a full-screen program such as vim or less has drawn its screen: the output is that screen, it keeps running; go on with terminal_send), idle, or timeout (it keeps running). Works inside REPLs (python, node, psql) and ssh. Without session, the command runs in a throwaway shell in your folder (or cwd) that is closed when the command finishes; if it is still running the session is kept and named in the result.",
  input: runInput,
  family: "terminal",
  run: (s, input, ctx) => s.terminal.run(input, ctx),
  text: formatRun,
  grpc: "Run",
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
