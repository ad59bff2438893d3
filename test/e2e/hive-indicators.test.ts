// Issue 11 §9: agent state at a glance in tmux. Border colours and the window summary are read
// back from tmux itself (show -p / show -w); the bell and OSC 9 are read from what a real
// attached client's terminal received (`script` records the tty of a `tmux attach`).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { logHas } from "./fake-agent-log.js";
import { FAKE_AGENT, writeFakeClaudeProfile } from "./fake-claude-profile.js";

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("hive indicators in tmux", () => {
  let h: Harness;
  let attached: ChildProcess | undefined;
  before(async () => {
    h = await Harness.startField({ TERMHIVE_PROFILES: writeFakeClaudeProfile() });
  });
  after(async () => {
    attached?.kill("SIGKILL");
    await h.destroy();
  });

  const option = (scope: "-p" | "-w", pane: string, name: string) => h.tmux("show", scope, "-v", "-t", pane, name).stdout.trim();
  // The styles as tmux draws this pane's border: the window's formats expanded for the pane.
  const style = (pane: string, name: string) => h.tmux("display", "-p", "-t", pane, `#{E:${name}}`).stdout.trim();
  const borderIs = (pane: string, colour: string) =>
    until(`${pane} border ${colour} (is ${style(pane, "pane-border-style")})`, () =>
      style(pane, "pane-border-style") === `fg=${colour}` && style(pane, "pane-active-border-style") === `fg=${colour},bold` ? true : undefined);
  const summaryIs = (pane: string, text: string) =>
    until(`summary "${text}" (is "${option("-w", pane, "@termhive_summary")}")`, () => (option("-w", pane, "@termhive_summary") === text ? true : undefined));

  test("§9 border colour per status, the window's summary, and a bell + OSC 9 on an attached client when an agent needs input", async () => {
    const logs = { lefty: join(h.home, "lefty.log"), righty: join(h.home, "righty.log") };
    const layout = await h.ok("hive_layout", {
      layout: "horizontal",
      panes: (["lefty", "righty"] as const).map((name) => ({ name, profile: "fakeclaude", command: `${process.execPath} ${FAKE_AGENT}`, env: { FAKE_AGENT_LOG: logs[name], FAKE_AGENT_TURN_MS: "4000" } })),
    });
    const pane = Object.fromEntries(layout.panes.map((p: { agent: string; pane: string }) => [p.agent, p.pane])) as Record<"lefty" | "righty", string>;
    for (const name of ["lefty", "righty"] as const) await logHas(logs[name], "ready");
    // hive_layout started them with the profile's hooks (--settings), which the fake read.
    for (const name of ["lefty", "righty"] as const) await logHas(logs[name], "settings: Notification,PermissionRequest,SessionEnd,SessionStart,Stop,StopFailure,UserPromptSubmit");
    assert.equal((await h.ok("hive_wait", { targets: { agents: ["lefty", "righty"] }, for: "idle", mode: "all", timeout_s: 10 })).matched, true);
    await borderIs(pane.lefty, "green");
    await borderIs(pane.righty, "green");
    await summaryIs(pane.lefty, "2 idle");
    // The session's status line shows the window's summary.
    assert.match(h.tmux("show", "-v", "-t", pane.lefty, "status-right").stdout, /#\{@termhive_summary\}/);

    // A person attached through a real terminal (script records what reached it).
    const tty = join(h.home, "attached.tty");
    attached = spawn("script", ["-qfc", `stty rows 40 cols 160; exec tmux -S '${join(h.home, "tmux.sock")}' attach -t '${pane.lefty}'`, tty], {
      env: { ...process.env, TERM: "xterm-256color" },
      stdio: ["pipe", "ignore", "ignore"],
    });
    await until("an attached client", () => (h.tmux("list-clients", "-F", "#{client_control_mode}").stdout.split("\n").includes("0") ? true : undefined));

    await h.ok("hive_message", { agents: { lefty: "long task" } });
    await borderIs(pane.lefty, "yellow");
    await summaryIs(pane.lefty, "1 working · 1 idle");

    await h.ok("hive_message", { agents: { righty: "ask: deploy" } });
    await logHas(logs.righty, "asking: ask: deploy");
    await borderIs(pane.righty, "magenta");
    await summaryIs(pane.lefty, "1 waiting · 1 working");
    const rang = await until("BEL + OSC 9 on the attached client's terminal", () => {
      const seen = existsSync(tty) ? readFileSync(tty, "latin1") : "";
      const at = seen.indexOf("\x07\x1b]9;termhive: righty needs input");
      return at === -1 ? undefined : seen.slice(at, seen.indexOf("\x07", at + 1) + 1);
    });
    assert.match(rang, /^\x07\x1b\]9;termhive: righty needs input[^\x00-\x1f]*\x07$/);

    await h.ok("hive_send", { targets: "righty", text: "1", enter: false });
    await logHas(logs.righty, "answered: yes");
    await logHas(logs.lefty, "done: long task");
    await borderIs(pane.lefty, "green");
    await logHas(logs.righty, "done: ask: deploy");
    await h.ok("hive_send", { targets: "righty", text: "/exit" });
    await logHas(logs.righty, "exit: prompt_input_exit");
    await borderIs(pane.righty, "colour244");
    await summaryIs(pane.lefty, "1 idle · 1 exited");

    // No longer an agent: its pane stops being coloured and counted.
    await h.ok("agent_remove", { name: "righty" });
    await until("righty's border back to the default", () => (style(pane.righty, "pane-border-style") === "default" && option("-p", pane.righty, "@termhive_status") === "" ? true : undefined));
    await summaryIs(pane.lefty, "1 idle");
  });
});
