// ls, open, run, send, read, close: one verb per service operation, thin over Ops.
import { InvalidArgumentError, Option, type Command } from "commander";
import { formatRead, formatRun, formatWait } from "../mcp/format.js";
import { connectEngine, type Engine } from "./connect.js";
import { fail, print } from "./output.js";
import { cliSpeakResult } from "./speak.js";

type Opts = Record<string, unknown> & { json?: boolean };

/** Runs a verb against the engine and always releases it (the direct service detaches from tmux). */
export async function withEngine<T>(json: boolean | undefined, work: (e: Engine) => Promise<T>, session?: string): Promise<T> {
  const progress = !json && process.stderr.isTTY ? (_ms: number, message: string) => process.stderr.write(`\r\x1b[K${message}`) : undefined;
  let engine: Engine | undefined;
  try {
    engine = await connectEngine({ onProgress: progress });
    const result = await work(engine);
    if (progress) process.stderr.write("\r\x1b[K");
    return result;
  } catch (error) {
    await engine?.done().catch(() => {});
    return fail(json, error, session);
  } finally {
    await engine?.done().catch(() => {});
  }
}

// Option parsers: InvalidArgumentError makes commander report a usage error (one line, exit 2).
export const int = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isInteger(n)) throw new InvalidArgumentError("not a whole number.");
  return n;
};
export const seconds = (v: string) => {
  const n = Number(v);
  if (v.trim() === "" || !Number.isFinite(n) || n <= 0) throw new InvalidArgumentError("not a positive number of seconds.");
  return n;
};

export function registerSessionVerbs(program: Command): void {
  program
    .command("ls")
    .description("list sessions")
    .option("--json", "print JSON")
    .action(async (o: Opts) => {
      const r = await withEngine(o.json, (e) => e.ops.list());
      print(o.json, r, () =>
        r.sessions.length
          ? r.sessions.map((s) => `${s.name}\t${s.session}\t${s.alive ? "alive" : `exited ${s.exit_code}`}\t${s.running ? `running: ${s.running}` : s.foreground}\t${s.cwd ?? ""}`).join("\n")
          : "no sessions",
      );
    });

  program
    .command("open")
    .description("open a session (your shell, or the given program)")
    .argument("[command...]", "program to run instead of your shell")
    .option("-n, --name <name>", "session name")
    .option("--cwd <dir>", "working directory")
    .option("--host <destination>", "run it on another machine (ssh destination: alias, user@host, ssh://user@host:port)")
    .option("--rows <n>", "rows", int)
    .option("--cols <n>", "columns", int)
    .option("--json", "print JSON")
    .action(async (command: string[], o: Opts) => {
      const r = await withEngine(o.json, (e) =>
        e.ops.open({
          name: o.name as string | undefined,
          command: command.length ? command.join(" ") : undefined,
          cwd: o.cwd as string | undefined,
          rows: o.rows as number | undefined,
          cols: o.cols as number | undefined,
          host: o.host as string | undefined,
        }),
      );
      print(o.json, r, () => `opened ${r.name} (${r.session}) · ${r.backend}${r.host ? ` on ${r.host}` : ""} · pid ${r.pid}\nwatch it: ${r.attach ?? "(not attachable)"}`);
    });

  program
    .command("run")
    .description("run a command in a session and wait for it (exit status: the command's; 124 if still running)")
    .argument("<session>", "session id or name")
    .argument("<command...>", "command line")
    .option("-t, --timeout <s>", "seconds to wait", seconds)
    .option("--until <regex>", "return when the output matches")
    .option("--max-tokens <n>", "token budget of the output", int)
    .option("--raw", "keep escape codes")
    .option("--confirm", "run even if the safety gate flags it")
    .option("--json", "print JSON")
    .action(async (session: string, command: string[], o: Opts) => {
      const r = await withEngine(o.json, (e) =>
        e.ops.run({
          session,
          command: command.join(" "),
          timeout_s: o.timeout as number | undefined,
          until: o.until as string | undefined,
          max_tokens: o.maxTokens as number | undefined,
          raw: o.raw as boolean | undefined,
          confirm: o.confirm as boolean | undefined,
        }),
        session,
      ).then((raw) => cliSpeakResult(raw, session));
      print(o.json, r, () => formatRun(r));
      process.exitCode = !r.complete ? 124 : (r.exit_code ?? 0);
    });

  program
    .command("send")
    .description("type text and/or named keys into a session, without waiting")
    .argument("<session>", "session id or name")
    .argument("[text...]", "text to type")
    .option("-k, --keys <keys>", "comma-separated named keys (C-c, Escape, Enter, Up, Tab, F1…), sent after the text")
    .option("--no-enter", "do not press Enter after the text")
    .option("--confirm", "send even if the safety gate flags it")
    .option("--json", "print JSON")
    // test/e2e/cli-door.test.ts runs every example line below: keep them working.
    .addHelpText(
      "after",
      [
        "",
        "Examples:",
        "  termhive send dev echo hello       type `echo hello` and press Enter",
        "  termhive send dev -k C-c           press Ctrl-C (interrupt what runs)",
        "  termhive send vim -k Escape        leave vim's insert mode (keys go after any text,",
        "  termhive send vim :q                 so Escape gets its own call), then type :q Enter",
      ].join("\n"),
    )
    .action(async (session: string, text: string[], o: Opts) => {
      const keys = typeof o.keys === "string" ? o.keys.split(",").filter(Boolean) : undefined;
      const r = await withEngine(o.json, (e) =>
        e.ops.send({ session, text: text.length ? text.join(" ") : undefined, keys, enter: o.enter as boolean, confirm: o.confirm as boolean | undefined }),
        session,
      );
      print(o.json, r, () => `sent ${r.sent_bytes} bytes${r.keys ? ` and ${r.keys} keys` : ""}`);
    });

  program
    .command("read")
    .description("read a session: new output, the screen, or a line range")
    .argument("<session>", "session id or name")
    .addOption(new Option("-m, --mode <mode>", "what to read").choices(["auto", "new", "screen", "diff", "lines", "all"]).default("auto"))
    .option("--from <line>", "first line (mode lines)", int)
    .option("--to <line>", "last line (mode lines)", int)
    .option("--filter <regex>", "keep matching lines")
    .option("--raw", "keep escape codes")
    .option("--max-tokens <n>", "token budget", int)
    .option("--json", "print JSON")
    .action(async (session: string, o: Opts) => {
      const r = await withEngine(o.json, (e) =>
        e.ops.read({
          session,
          mode: o.mode as "auto",
          from_line: o.from as number | undefined,
          to_line: o.to as number | undefined,
          filter: o.filter as string | undefined,
          raw: o.raw as boolean | undefined,
          max_tokens: o.maxTokens as number | undefined,
        }),
        session,
      ).then((raw) => cliSpeakResult(raw, session));
      print(o.json, r, () => formatRead(r));
    });

  program
    .command("wait")
    .description("wait until the running command completes, output goes idle, the program exits, or a pattern shows (exit status 124 on timeout)")
    .argument("<session>", "session id or name")
    .addOption(new Option("--for <what>", "what to wait for (default: pattern with --pattern, else completion)").choices(["completion", "idle", "exit", "pattern"]))
    .option("--pattern <regex>", "regex to wait for in output not yet read")
    .option("-t, --timeout <s>", "seconds to wait (default 30)", seconds)
    .option("--max-tokens <n>", "token budget of the output", int)
    .option("--json", "print JSON")
    .action(async (session: string, o: Opts) => {
      const r = await withEngine(
        o.json,
        (e) =>
          e.ops.wait({
            session,
            for: o.for as "completion" | undefined,
            pattern: o.pattern as string | undefined,
            timeout_s: o.timeout as number | undefined,
            max_tokens: o.maxTokens as number | undefined,
          }),
        session,
      ).then((raw) => cliSpeakResult(raw, session));
      print(o.json, r, () => formatWait(r));
      process.exitCode = r.matched ? 0 : 124;
    });
}
