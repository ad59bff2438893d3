// `termhive doctor`: what this machine has, what is missing and the command that installs it,
// then a live round trip (open → run echo → close) through whichever engine the CLI uses.
import type { Command } from "commander";
import { spawnSync } from "node:child_process";
import { existsSync, statSync } from "node:fs";
import { findTmux, tmuxMissingMessage } from "../backends/find-tmux.js";
import { loadConfig, type TermhiveConfig } from "../config.js";
import { probeIterm2 } from "../iterm2/availability.js";
import { grpcSocketPath, socketIsLive } from "../grpc/socket.js";
import { tokenPath } from "../auth/token.js";
import { connectEngine } from "./connect.js";
import { findBwrap } from "../sandbox/bwrap.js";
import { findPasta } from "../sandbox/network.js";
import { print } from "./output.js";
import { judgeVersion, loadProfiles, parseVersion } from "../hive/index.js";
import { traced } from "../util/traced.js";

interface Check {
  check: string;
  ok: boolean;
  /** false: a missing optional piece (a warning, not a failure). */
  required: boolean;
  detail: string;
  fix?: string;
}

function probe(command: string, args: string[]): string | null {
  const r = spawnSync(command, args, { encoding: "utf8", timeout: 5000 });
  return r.status === 0 ? (r.stdout || r.stderr).trim().split("\n")[0]! : null;
}

function tmuxCheck(configured: string): Check {
  const tmuxPath = findTmux(configured);
  const install = process.platform === "darwin" ? "brew install tmux" : "sudo apt-get install -y tmux";
  if (!tmuxPath) return { check: "tmux", ok: false, required: true, detail: tmuxMissingMessage(configured), fix: install };
  const version = probe(tmuxPath, ["-V"]);
  if (!version) return { check: "tmux", ok: false, required: true, detail: `${tmuxPath} is there but \`${tmuxPath} -V\` fails`, fix: install };
  const m = /(\d+)\.(\d+)/.exec(version);
  // Control-mode flow control (pause-after) needs 3.2.
  const recent = m !== null && (Number(m[1]) > 3 || (Number(m[1]) === 3 && Number(m[2]) >= 2));
  return recent
    ? { check: "tmux", ok: true, required: true, detail: `${version} (${tmuxPath})` }
    : { check: "tmux", ok: false, required: true, detail: `${version} (${tmuxPath}) is older than 3.2`, fix: "install tmux ≥ 3.2 (sudo apt-get install -y tmux on Debian 12 / Ubuntu 22.04+)" };
}

function shellCheck(shell: string): Check {
  const version = probe(shell, ["--version"]);
  return version
    ? { check: shell, ok: true, required: shell === "bash", detail: version }
    : { check: shell, ok: false, required: shell === "bash", detail: "not installed", fix: `sudo apt-get install -y ${shell}` };
}

function homeCheck(home: string): Check[] {
  if (!existsSync(home)) return [{ check: "TERMHIVE_HOME", ok: true, required: true, detail: `${home} (created on first use, mode 0700)` }];
  const checks: Check[] = [];
  const mode = statSync(home).mode & 0o777;
  checks.push(
    mode & 0o077
      ? { check: "TERMHIVE_HOME", ok: false, required: true, detail: `${home} is mode ${mode.toString(8)}: others can reach your terminals`, fix: `chmod 700 ${home}` }
      : { check: "TERMHIVE_HOME", ok: true, required: true, detail: `${home} (mode 700)` },
  );
  const token = tokenPath(home);
  if (existsSync(token)) {
    const tmode = statSync(token).mode & 0o777;
    checks.push(
      tmode & 0o077
        ? { check: "token", ok: false, required: true, detail: `${token} is mode ${tmode.toString(8)}`, fix: `chmod 600 ${token}` }
        : { check: "token", ok: true, required: true, detail: `${token} (mode 600)` },
    );
  }
  return checks;
}

/** terminal_open's `sandbox` option: bubblewrap on Linux, and whether it can make a namespace here. */
function sandboxCheck(): Check {
  if (process.platform !== "linux") return { check: "sandbox", ok: false, required: false, detail: `not available on ${process.platform} (only Linux with bubblewrap; macOS sandbox-exec is not done)` };
  const bwrap = findBwrap();
  if (!bwrap) return { check: "sandbox", ok: false, required: false, detail: "bubblewrap (bwrap) is not installed: terminal_open's sandbox option is refused", fix: "sudo apt-get install -y bubblewrap" };
  // A real try: bwrap is there but user namespaces may be off (a container, a sysctl).
  const works = spawnSync(bwrap, ["--ro-bind", "/", "/", "--dev", "/dev", "--unshare-pid", "--unshare-net", "--die-with-parent", "--", "true"], { timeout: 5000 }).status === 0;
  // The presets' "outside" network needs pasta (sandbox/network.ts); without it they are refused.
  const pasta = findPasta();
  if (works && !pasta) return { check: "sandbox", ok: false, required: false, detail: `${bwrap} works, but pasta is not installed: the sandbox presets (network "outside") are refused; only explicit network "on"/"off" policies open`, fix: "sudo apt-get install -y passt" };
  return works
    ? { check: "sandbox", ok: true, required: false, detail: `${probe(bwrap, ["--version"]) ?? "bwrap"} (${bwrap}), pasta (${pasta}): terminal_open's sandbox option is available, presets with network "outside"` }
    : { check: "sandbox", ok: false, required: false, detail: `${bwrap} is installed but cannot create a sandbox here (user namespaces disabled?)`, fix: "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1) or run where they are allowed" };
}

/** What of the iTerm2 support works here: tab status and the iterm2 backend need its API. */
/** The agent programs the built-in profiles drive: installed version, and whether the profile knows it. */
function agentChecks(): Check[] {
  let profiles;
  try {
    profiles = loadProfiles();
  } catch (error) {
    return [{ check: "profiles", ok: false, required: false, detail: (error as Error).message }];
  }
  return ["claude", "codex"].map((name): Check => {
    const profile = profiles.get(name);
    const program = profile.command.trim().split(/\s+/)[0] || name;
    const output = probe(program, ["--version"]);
    const version = output && parseVersion(output);
    if (!version) return { check: name, ok: true, required: false, detail: "not installed (only needed to run it under the hive)" };
    const verdict = judgeVersion(profile, version);
    return verdict.known
      ? { check: name, ok: true, required: false, detail: `${version}; ${verdict.note}` }
      : { check: name, ok: false, required: false, detail: `${version}: ${verdict.note}` };
  });
}

async function iterm2Check(config: TermhiveConfig, tmuxOk: boolean): Promise<Check> {
  const probe = await probeIterm2();
  const needed = config.backend === "iterm2";
  const attach = tmuxOk ? "attach --iterm2 is ready" : "attach --iterm2 needs tmux (see above)";
  if (probe.reachable) {
    return { check: "iTerm2", ok: true, required: needed, detail: `${probe.detail}: agent status on tabs is on; TERMHIVE_BACKEND=iterm2 is available; ${attach}` };
  }
  if (probe.detail === "not macOS") {
    return { check: "iTerm2", ok: !needed, required: needed, detail: "not macOS: tab status and TERMHIVE_BACKEND=iterm2 are off (attach --iterm2 --print still prints the command)" };
  }
  return {
    check: "iTerm2",
    ok: false,
    required: needed,
    detail: `${probe.detail}: tab status${needed ? " and TERMHIVE_BACKEND=iterm2 are" : " is"} off; ${attach}`,
    // iTerm2 itself never asks (termhive sends x-iterm2-disable-auth-ui): the cookie comes through
    // AppleScript, which macOS lets the app termhive runs in send only once Automation allows it.
    fix: "turn on iTerm2 > Settings > General > Magic > Enable Python API, and allow the app termhive runs in (your terminal or editor) to control iTerm2: System Settings > Privacy & Security > Automation > iTerm2 (macOS asks once, the first time termhive asks iTerm2 for a cookie); or set ITERM2_COOKIE and ITERM2_KEY",
  };
}

async function roundTrip(): Promise<Check> {
  const started = Date.now();
  let engine;
  try {
    engine = await connectEngine();
    const name = `doctor-${process.pid}`;
    await engine.ops.open({ name, command: "bash" });
    const r = await engine.ops.run({ session: name, command: "echo termhive-doctor-ok", timeout_s: 10 });
    await engine.ops.close({ session: name, force: true });
    const ok = r.output.includes("termhive-doctor-ok") && r.exit_code === 0;
    const via = engine.remote ? "via termhive serve" : "in-process";
    return { check: "round trip", ok, required: true, detail: `open → run echo → close ${via}: ${ok ? "ok" : `unexpected result ${JSON.stringify(r.output)} (${r.reason})`} in ${Date.now() - started} ms` };
  } catch (error) {
    return { check: "round trip", ok: false, required: true, detail: (error as Error).message };
  } finally {
    await engine?.done().catch(traced("releasing doctor's engine"));
  }
}

export function registerDoctor(program: Command): void {
  program
    .command("doctor")
    .description("check tmux, shells, TERMHIVE_HOME, iTerm2, the claude/codex versions the hive profiles know, and a live round trip; print what is missing and how to install it")
    .option("--json", "print JSON")
    .action(async (o: { json?: boolean }) => {
      const config = loadConfig();
      const checks: Check[] = [tmuxCheck(config.tmuxPath), ...["bash", "zsh", "fish"].map(shellCheck), ...homeCheck(config.home)];
      const socket = grpcSocketPath(config.home);
      const live = existsSync(socket) && (await socketIsLive(socket, 500));
      checks.push(await iterm2Check(config, checks[0]!.ok));
      checks.push(sandboxCheck());
      checks.push(...agentChecks());
      checks.push({ check: "server", ok: true, required: false, detail: live ? `termhive serve is running (${socket})` : "no termhive serve running (the CLI works directly against tmux)" });
      if (checks[0]!.ok) checks.push(await roundTrip());
      const ok = checks.every((c) => c.ok || !c.required);
      const fixes = checks.filter((c) => !c.ok && c.fix).map((c) => c.fix!);
      print(o.json, { ok, checks }, () =>
        [
          ...checks.map((c) => `${c.ok ? "ok  " : c.required ? "FAIL" : "warn"}  ${c.check.padEnd(14)} ${c.detail}${!c.ok && c.fix ? `\n      fix: ${c.fix}` : ""}`),
          fixes.length ? `\nTo install what is missing:\n  ${fixes.join("\n  ")}` : "",
          ok ? "termhive is ready." : "termhive is not ready: see FAIL above.",
        ].filter(Boolean).join("\n"),
      );
      process.exitCode = ok ? 0 : 1;
    });
}
