// `termhive attach <session>`: hands this terminal to tmux, attached to the session's pane.
// `--iterm2` attaches in tmux control mode (-CC) instead, so iTerm2 shows each termhive window
// as a native tab and a hive layout's panes as native split panes.
import type { Command } from "commander";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { findTmux } from "../backends/find-tmux.js";
import { loadConfig } from "../config.js";
import { ToolError } from "../service/errors.js";
import { connectEngine } from "./connect.js";
import { fail, print } from "./output.js";
import { joinWords } from "../util/words.js";
import { traced } from "../util/traced.js";

/** The tmux session every termhive pane lives in (TmuxBackend's default session name). */
const TERMHIVE_TMUX_SESSION = "termhive";

interface AttachTarget {
  session: string | null;
  name: string | null;
  /** What tmux's -t gets: a pane ("%3"), a window ("@2") or the termhive tmux session. */
  target: string;
}

interface AttachOptions {
  json?: boolean;
  iterm2?: boolean;
  print?: boolean;
}

async function resolveTarget(ref: string | undefined, o: AttachOptions): Promise<AttachTarget> {
  // A tmux window id is taken as is: `termhive attach --iterm2 @3` opens that window's tabs.
  if (ref === undefined) return { session: null, name: null, target: TERMHIVE_TMUX_SESSION };
  if (/^@\d+$/.test(ref)) return { session: null, name: null, target: ref };
  const engine = await connectEngine().catch((e: unknown) => fail(o.json, e));
  try {
    const { sessions } = await engine.ops.list();
    const found = sessions.find((s) => s.session === ref || s.name === ref);
    if (!found) throw new ToolError(`unknown session ${JSON.stringify(ref)}; sessions: ${sessions.map((s) => s.name).join(", ") || "none"}`, "not_found");
    if (found.backend !== "tmux") throw new ToolError(`attach is not supported by the ${found.backend} backend`, "unsupported");
    return { session: found.session, name: found.name, target: found.pane };
  } catch (error) {
    await engine.done().catch(traced("releasing attach's engine"));
    return fail(o.json, error);
  } finally {
    await engine.done().catch(traced("releasing attach's engine"));
  }
}

export function registerAttach(program: Command): void {
  program
    .command("attach")
    .description("attach this terminal to a session's tmux pane (detach with C-b d); --iterm2: as native iTerm2 tabs and panes")
    .argument("[session]", "session id or name (with --iterm2 also a tmux window id like @3; omitted: every termhive window)")
    .option("--json", "print the attach command as JSON instead of running it")
    .option("--iterm2", "attach in tmux control mode (tmux -CC) so iTerm2 shows termhive's windows as native tabs and split panes")
    .option("--print", "print the shell command instead of running it")
    .action(async (ref: string | undefined, o: AttachOptions) => {
      const config = loadConfig();
      if (ref === undefined && !o.iterm2) fail(o.json, new ToolError("name the session to attach to (only --iterm2 attaches to every window at once)", "invalid"));
      const target = await resolveTarget(ref, o);
      // The resolved path, not "tmux": iTerm2 runs the command without a login shell's PATH,
      // so on macOS a bare "tmux" misses Homebrew's /opt/homebrew/bin.
      const tmux = findTmux(config.tmuxPath) ?? config.tmuxPath;
      const args = ["-S", join(config.home, "tmux.sock"), ...(o.iterm2 ? ["-CC"] : []), "attach", "-t", target.target];
      const argv = [tmux, ...args];
      if (o.json || o.print || !process.stdin.isTTY) {
        print(o.json, { session: target.session, name: target.name, pane: target.target, iterm2: o.iterm2 === true, argv }, () => joinWords(argv));
        return;
      }
      const r = spawnSync(tmux, args, { stdio: "inherit" });
      process.exitCode = r.status ?? 1;
    });
}
