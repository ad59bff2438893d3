import { Option } from "commander";
import { z } from "zod";
import { int, seconds } from "./cli-args.js";
import { session } from "./schemas/terminal.js";
import { READS, defineVerb } from "./verb.js";

const waitInput = {
  session,
  pattern: z.string().max(2000).optional().describe("Regex to wait for."),
  for: z.enum(["pattern", "completion", "idle", "exit"]).optional().describe("What to wait for (default: pattern if given, else completion)."),
  timeout_s: z.number().min(0.1).max(3600).default(30).describe("Seconds to wait (default 30)."),
  idle_ms: z.number().int().min(10).max(600_000).optional().describe("Quiet ms that count as idle (default 500)."),
  max_tokens: z.number().int().min(50).max(200_000).optional().describe("Output budget (default 2000)."),
};

/** Where a pattern was looked for, as the result's last line says it. */
const LOOKED: Record<string, string> = { input: "in output since the last input", read: "in output since your last read", start: "in output since your last read, the adopted history included (the last input came before this process followed the session)", open: "in all output (nothing was sent to the session yet)" };

function formatWait(r: { matched: boolean; reason: string; output: string; match?: string; exit_code?: number | null; duration_ms: number; tui?: true; looked_since?: string }): string {
  const screen = r.tui ? " · full-screen app: output is its screen" : "";
  const looked = r.looked_since ? ` ${LOOKED[r.looked_since]}` : "";
  const head = r.matched ? `[${r.reason}${r.match !== undefined ? `: ${JSON.stringify(r.match)}` : ""}${r.exit_code !== undefined ? ` · exit ${r.exit_code}` : ""} · ${r.duration_ms} ms${looked ? ` ·${looked}` : ""}${screen}]` : `[timeout after ${r.duration_ms} ms: not matched${looked}${screen}]`;
  return [r.output, head].filter(Boolean).join("\n");
}

export default defineVerb({
  name: "terminal_wait",
  title: "Wait for output, completion, idle or exit",
  description:
    "Block until a regex shows in output since the last input, the command completes, output goes idle, or the program exits; returns the output looked at.",
  input: waitInput,
  family: "terminal",
  annotations: READS,
  run: (s, input, ctx) => s.terminal.wait(input, ctx),
  text: formatWait,
  grpc: "Wait",
  // A completion or exit that was seen carries its exit code, null when unknown.
  nullable: { exit_code: (r: { matched: boolean; reason: string }) => r.matched && (r.reason === "completion" || r.reason === "exit") },
  cli: {
    command: "wait",
    args: [["<session>", "session id or name"]],
    description: "wait until the running command completes, output goes idle, the program exits, or a pattern shows (exit status 124 on timeout)",
    options: [
      new Option("--for <what>", "what to wait for (default: pattern with --pattern, else completion)").choices(["completion", "idle", "exit", "pattern"]),
      ["--pattern <regex>", "regex to wait for in output since the last input"],
      ["-t, --timeout <s>", "seconds to wait (default 30)", seconds],
      ["--max-tokens <n>", "token budget of the output", int],
    ],
    input: ([session]: [string], o) => ({
      session,
      for: o.for as "completion" | undefined,
      pattern: o.pattern as string | undefined,
      timeout_s: o.timeout as number | undefined,
      max_tokens: o.maxTokens as number | undefined,
    }),
    exitCode: (r) => (r.matched ? 0 : 124),
    speak: true,
  },
});
