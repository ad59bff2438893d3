import { z } from "zod";
import { joinWords } from "../util/words.js";
import { int, sandboxPreset } from "./cli-args.js";
import { cols, rows } from "./schemas/terminal.js";
import { WRITES, defineVerb } from "./verb.js";
import { sandboxOption } from "../sandbox/policy.js";

const openInput = {
  name: z.string().max(64).optional().describe("Letters, digits, . _ - (default: from the command)."),
  command: z.string().max(10_000).optional().describe("Program instead of your shell, e.g. python3."),
  cwd: z.string().max(4096).optional().describe("Working directory."),
  env: z.record(z.string(), z.string()).optional().describe("Extra environment variables."),
  sandbox: sandboxOption
    // Listed by its description alone: the two forms are spelled out there (~15 tokens less).
    .meta({ "x-listed-as": {} })
    .optional()
    .describe('Sandbox: "worktree" (writes cwd only), "readonly", or {write:[paths], read?:[paths], network:"on"|"off"|"loopback", env?:"clean", unix_sockets?:"allow"}.'),
  rows: rows.default(40).describe("Rows (default 40)."),
  cols: cols.default(120).describe("Columns (default 120)."),
  host: z.string().max(512).optional().describe("ssh destination (alias, user@host) or docker://NAME."),
};

export default defineVerb({
  name: "terminal_open",
  title: "Open a terminal session",
  description:
    "Open a persistent session (your shell, or a program: python3, psql…) that outlives calls and restarts; returns its name and how a person attaches.",
  input: openInput,
  family: "terminal",
  annotations: WRITES,
  run: (s, input) => s.terminal.open(input),
  // The text's facts as typed fields (a client may show the model these instead of the text).
  structured: {
    schema: {
      name: z.string(), session: z.string(), backend: z.string(), host: z.string().optional(), pid: z.number().int().optional(),
      shell_integration: z.boolean(), ready: z.boolean(), attach: z.string().nullable(), warning: z.string().optional(), sandbox: z.string().optional(),
    },
    of: (r) => ({
      name: r.name, session: r.session, backend: r.backend, ...(r.host ? { host: r.host } : {}), ...(r.pid ? { pid: r.pid } : {}),
      shell_integration: r.integrated, ready: r.ready !== false, attach: r.attach ?? null, ...(r.warning ? { warning: r.warning } : {}), ...(r.sandbox ? { sandbox: r.sandbox } : {}),
    }),
  },
  // A pane whose program died as it opened is not called opened (its reason is in the warning).
  text: (r) =>
    `${r.alive === false ? "not running (its program exited as it opened)" : "opened"} ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}${r.integrated ? " · shell integration on" : ""}${r.sandbox ? ` · sandbox ${r.sandbox}` : ""}${r.ready ? "" : " · still starting (runs and sends wait for its first prompt)"}\nwatch it: ${r.attach ?? "(not attachable)"}${r.warning ? `\nwarning: ${r.warning}` : ""}`,
  grpc: "Open",
  nullable: { attach: true },
  cli: {
    command: "open",
    args: [["[command...]", "program and its arguments, instead of your shell (one quoted word is a shell command line)"]],
    description: "open a session (your shell, or the given program)",
    options: [
      ["-n, --name <name>", "session name"],
      ["--cwd <dir>", "working directory"],
      ["--rows <n>", "rows", int],
      ["--cols <n>", "columns", int],
      ["--host <destination>", "run it on another machine (ssh destination: alias, user@host, ssh://user@host:port) or in a running container (docker://NAME, podman://NAME)"],
      ["--sandbox <preset>", "run it in a sandbox: worktree (writes its cwd only) or readonly", sandboxPreset],
    ],
    input: ([command]: string[][], o) => ({
      name: o.name as string | undefined,
      // Several words are an argv: each kept whole (open -- sh -c "exit 4" must not run sh -c exit 4).
      command: command!.length > 1 ? joinWords(command!) : command![0],
      cwd: o.cwd as string | undefined,
      rows: o.rows as number | undefined,
      cols: o.cols as number | undefined,
      host: o.host as string | undefined,
      sandbox: o.sandbox as "worktree" | "readonly" | undefined,
    }),
    text: (r) => `${r.alive === false ? "not running (its program exited as it opened)" : "opened"} ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}${r.sandbox ? ` · sandbox ${r.sandbox}` : ""}\nwatch it: ${r.attach ?? "(not attachable)"}`,
  },
});
