import { z } from "zod";
import { joinWords } from "../util/words.js";
import { int } from "./cli-args.js";
import { cols, rows } from "./schemas/terminal.js";
import { defineVerb } from "./verb.js";
import { sandboxOption } from "../sandbox/policy.js";

const openInput = {
  name: z.string().max(64).optional().describe("Name for the session (letters, digits, . _ -). Default: derived from the command."),
  command: z.string().max(10_000).optional().describe("Program to run instead of your shell, e.g. \"python3\" or \"ssh host\". bash/zsh/fish get shell integration."),
  cwd: z.string().max(4096).optional().describe("Working directory (on host: relative to the remote HOME, default HOME)."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables."),
  sandbox: sandboxOption
    .optional()
    .describe('Run the program in a sandbox (Linux, bubblewrap): "worktree" (write only cwd and the program\'s own config dirs), "readonly", or {write: [paths], read?: "all" | [paths], network: "on" | "off" | "loopback", env?: "clean"}.'),
  rows: rows.default(40).describe("Terminal rows (default 40)."),
  cols: cols.default(120).describe("Terminal columns (default 120)."),
  host: z.string().max(512).optional().describe("Run the session on another machine: an ssh destination (ssh config alias, user@host, ssh://user@host:port), in that host's tmux."),
};

export default defineVerb({
  name: "terminal_open",
  title: "Open a terminal session",
  description:
    "Open a persistent terminal session (your shell by default, or a program such as python3, psql, ssh host). It stays open across calls and termhive restarts. Returns the session id/name and the command a person runs to attach and watch.",
  input: openInput,
  family: "terminal",
  run: (s, input) => s.terminal.open(input),
  text: (r) =>
    `opened ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}${r.integrated ? " · shell integration on" : ""}${r.sandbox ? ` · sandbox ${r.sandbox}` : ""}${r.ready ? "" : " · still starting (runs and sends wait for its first prompt)"}\nwatch it: ${r.attach ?? "(not attachable)"}${r.warning ? `\nwarning: ${r.warning}` : ""}`,
  grpc: "Open",
  cli: {
    command: "open",
    args: [["[command...]", "program and its arguments, instead of your shell (one quoted word is a shell command line)"]],
    description: "open a session (your shell, or the given program)",
    options: [
      ["-n, --name <name>", "session name"],
      ["--cwd <dir>", "working directory"],
      ["--rows <n>", "rows", int],
      ["--cols <n>", "columns", int],
      ["--host <destination>", "run it on another machine (ssh destination: alias, user@host, ssh://user@host:port)"],
    ],
    input: ([command]: string[][], o) => ({
      name: o.name as string | undefined,
      // Several words are an argv: each kept whole (open -- sh -c "exit 4" must not run sh -c exit 4).
      command: command!.length > 1 ? joinWords(command!) : command![0],
      cwd: o.cwd as string | undefined,
      rows: o.rows as number | undefined,
      cols: o.cols as number | undefined,
      host: o.host as string | undefined,
    }),
    text: (r) => `opened ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}\nwatch it: ${r.attach ?? "(not attachable)"}`,
  },
});
