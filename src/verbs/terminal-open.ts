import { z } from "zod";
import { joinWords } from "../util/words.js";
import { int } from "./cli-args.js";
import { cols, rows } from "./schemas/terminal.js";
import { WRITES, defineVerb } from "./verb.js";

const openInput = {
  name: z.string().max(64).optional().describe("Letters, digits, . _ - (default: from the command)."),
  command: z.string().max(10_000).optional().describe("Program instead of your shell, e.g. python3."),
  cwd: z.string().max(4096).optional().describe("Working directory."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables."),
  rows: rows.default(40).describe("Terminal rows (default 40)."),
  cols: cols.default(120).describe("Terminal columns (default 120)."),
  host: z.string().max(512).optional().describe("ssh destination (alias, user@host) to run it on."),
};

export default defineVerb({
  name: "terminal_open",
  title: "Open a terminal session",
  description:
    "Open a persistent session (your shell, or a program such as python3 or psql) that outlives calls and restarts. Returns its name and the command a person runs to watch it.",
  input: openInput,
  family: "terminal",
  annotations: WRITES,
  run: (s, input) => s.terminal.open(input),
  // The text's facts as typed fields (a client may show the model these instead of the text).
  structured: {
    schema: {
      name: z.string(), session: z.string(), backend: z.string(), host: z.string().optional(), pid: z.number().int().optional(),
      shell_integration: z.boolean(), ready: z.boolean(), attach: z.string().nullable(), warning: z.string().optional(),
    },
    of: (r) => ({
      name: r.name, session: r.session, backend: r.backend, ...(r.host ? { host: r.host } : {}), ...(r.pid ? { pid: r.pid } : {}),
      shell_integration: r.integrated, ready: r.ready !== false, attach: r.attach ?? null, ...(r.warning ? { warning: r.warning } : {}),
    }),
  },
  text: (r) =>
    `opened ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}${r.integrated ? " · shell integration on" : ""}${r.ready ? "" : " · still starting (runs and sends wait for its first prompt)"}\nwatch it: ${r.attach ?? "(not attachable)"}${r.warning ? `\nwarning: ${r.warning}` : ""}`,
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
