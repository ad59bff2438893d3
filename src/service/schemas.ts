// Input schemas of every operation, shared by the MCP tools, gRPC and the CLI.
import { z } from "zod";

const session = z.string().min(1).max(200).describe("Session id or name (see terminal_list).");

export const openInput = {
  name: z.string().max(64).optional().describe("Name for the session (letters, digits, . _ -). Default: derived from the command."),
  command: z.string().max(10_000).optional().describe("Program to run instead of your shell, e.g. \"python3\" or \"ssh host\". bash/zsh/fish get shell integration."),
  cwd: z.string().max(4096).optional().describe("Working directory (on host: relative to the remote HOME, default HOME)."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables."),
  rows: z.number().int().min(2).max(500).default(40).describe("Terminal rows (default 40)."),
  cols: z.number().int().min(10).max(1000).default(120).describe("Terminal columns (default 120)."),
  host: z.string().max(512).optional().describe("Run the session on another machine: an ssh destination (ssh config alias, user@host, ssh://user@host:port), in that host's tmux."),
};

export const runInput = {
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

export const sendInput = {
  session,
  text: z.string().max(64 * 1024 * 1024).optional().describe(
    "Text to type. Multi-line text is sent as one bracketed paste. A trailing newline submits the text: it is the Enter (also with enter: false, and never a second Enter with enter: true).",
  ),
  enter: z.boolean().default(true).describe("Press Enter after the text (default true). Text ending in a newline is submitted either way."),
  keys: z.array(z.string().max(32)).max(1000).optional().describe("Named keys sent after the text: Up, Down, Left, Right, Home, End, Tab, S-Tab, Escape, Enter, Backspace, Delete, Insert, PageUp, PageDown, F1–F12, C-a…C-z, C-\\, C-], M-x."),
  secret: z.string().max(64 * 1024).optional().describe("Sensitive text (password) typed with Enter; never logged, recorded or returned."),
  confirm: z.boolean().optional().describe("Send even though the safety gate flags the text."),
};

export const readInput = {
  session,
  mode: z.enum(["auto", "new", "screen", "diff", "lines", "all"]).default("auto").describe(
    "new: output since your last read; screen: the visible screen; diff: screen lines changed since your last screen read; lines: a line range; all: everything held; auto: screen for full-screen apps, else new.",
  ),
  from_line: z.number().int().min(1).optional().describe("First line (1-based) for mode lines."),
  to_line: z.number().int().min(1).optional().describe("Last line (inclusive) for mode lines."),
  raw: z.boolean().optional().describe("Keep escape codes."),
  filter: z.string().max(2000).optional().describe("Regex: keep only matching lines (with context)."),
  context: z.number().int().min(0).max(50).optional().describe("Lines of context around filter matches (default 0)."),
  max_tokens: z.number().int().min(50).max(200_000).optional().describe("Token budget (default 2000)."),
  reduce: z.boolean().optional().describe("Apply a per-command reducer (default false for reads)."),
};

export const waitInput = {
  session,
  pattern: z.string().max(2000).optional().describe("Regex to wait for (in output not yet read, then new output)."),
  for: z.enum(["pattern", "completion", "idle", "exit"]).optional().describe("What to wait for (default: pattern if given, else completion)."),
  timeout_s: z.number().min(0.1).max(3600).default(30).describe("Seconds to wait (default 30)."),
  idle_ms: z.number().int().min(10).max(600_000).optional().describe("Quiet time that counts as idle (default 500)."),
  max_tokens: z.number().int().min(50).max(200_000).optional(),
};

export const listInput = {};

export const closeInput = {
  session,
  force: z.boolean().optional().describe("Close even if a command is running (it is killed)."),
};

export const resizeInput = {
  session,
  rows: z.number().int().min(2).max(500),
  cols: z.number().int().min(10).max(1000),
};

type Shape = Record<string, z.ZodType>;
export type Input<S extends Shape> = z.infer<z.ZodObject<S>>;
