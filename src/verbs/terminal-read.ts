import { Option } from "commander";
import { z } from "zod";
import { int } from "./cli-args.js";
import { session } from "./schemas/terminal.js";
import { READS, defineVerb } from "./verb.js";

const MODES = ["auto", "new", "screen", "diff", "lines", "all"] as const;

const readInput = {
  session,
  mode: z.enum(MODES).default("auto").describe(
    "new: since your last read; screen: what is shown; diff: screen rows changed since your last; lines: from_line..to_line; all: everything held; auto: screen for TUIs, else new.",
  ),
  from_line: z.number().int().min(1).optional().describe("1-based."),
  to_line: z.number().int().min(1).optional().describe("Inclusive."),
  raw: z.boolean().optional().describe("Keep escape codes."),
  filter: z.string().max(2000).optional().describe("Regex: keep only matching lines (with context)."),
  context: z.number().int().min(0).max(50).optional().describe("Lines around filter matches (default 0)."),
  max_tokens: z.number().int().min(50).max(200_000).optional().describe("Token budget (default 2000)."),
  reduce: z.boolean().optional().describe("Summarise by command (default false)."),
};

function formatRead(r: { output: string; mode: string; tui: boolean; cursor?: { row: number; col: number }; line_count: number; tokens: number; note?: string; alive: boolean; exit_code?: number | null }): string {
  const facts = [`mode ${r.mode}`, r.tui ? "full-screen app" : undefined, r.cursor ? `cursor ${r.cursor.row + 1}:${r.cursor.col + 1}` : undefined, `${r.line_count} lines`, `${r.tokens} tokens`, r.alive ? undefined : `exited (${r.exit_code})`]
    .filter(Boolean)
    .join(" · ");
  return [r.output, `[${facts}]`, r.note].filter((part) => part !== undefined && part !== "").join("\n");
}

export default defineVerb({
  name: "terminal_read",
  title: "Read a session",
  description:
    "Read a session: new output, the screen (vim/less/htop), a screen diff, a line range, or everything. Long output is folded; each fold marker names the call that shows what it hides.",
  input: readInput,
  family: "terminal",
  annotations: READS,
  run: (s, input, ctx) => s.terminal.read(input, ctx),
  text: formatRead,
  grpc: "Read",
  nullable: { exit_code: (r: { alive: boolean }) => !r.alive },
  cli: {
    command: "read",
    args: [["<session>", "session id or name"]],
    description: "read a session: new output, the screen, or a line range",
    options: [
      new Option("-m, --mode <mode>", "what to read").choices(MODES).default("auto"),
      ["--from <line>", "first line (mode lines)", int],
      ["--to <line>", "last line (mode lines)", int],
      ["--filter <regex>", "keep matching lines"],
      ["--raw", "keep escape codes"],
      ["--max-tokens <n>", "token budget", int],
    ],
    input: ([session]: [string], o) => ({
      session,
      mode: o.mode as (typeof MODES)[number],
      from_line: o.from as number | undefined,
      to_line: o.to as number | undefined,
      filter: o.filter as string | undefined,
      raw: o.raw as boolean | undefined,
      max_tokens: o.maxTokens as number | undefined,
    }),
    speak: true,
  },
});
