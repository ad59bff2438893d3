// Issue 20 §4 + issue 23 §5: a pane's environment is that of the termhive process whose call
// opened it — never the tmux server's (the first client's) — and never carries the agent-session
// identity Claude Code and Codex give the MCP servers they start. Judged by what `env` prints
// inside the panes and what the tmux server holds.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { Harness } from "./harness.js";

/** What Claude Code puts in an MCP stdio server's environment, plus Codex's thread id. */
const identity = (n: string) => ({
  CLAUDECODE: "1",
  CLAUDE_CODE_SESSION_ID: `lead-session-${n}`,
  CLAUDE_CODE_ENTRYPOINT: "cli",
  CLAUDE_CODE_MESSAGING_SOCKET: `/tmp/lead-${n}.sock`,
  CLAUDE_PROJECT_DIR: `/tmp/project-${n}`,
  CODEX_THREAD_ID: `thread-${n}`,
});
const IDENTITY_NAMES = Object.keys(identity("x"));

async function paneEnv(h: Harness, name: string, open: Record<string, unknown> = {}): Promise<Map<string, string>> {
  const { session } = await h.ok("terminal_open", { name, command: "bash", ...open });
  const r = await h.ok("terminal_run", { session, command: "env | LC_ALL=C sort | grep -E '^(FOO|CLAUDE|CODEX|ANTHROPIC|EXPLICIT)'" });
  return new Map(String(r.output).split(/\r?\n/).filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
}

function startOn(home: string, userHome: string, env: Record<string, string>): Promise<Harness> {
  const h = new Harness(home, { HOME: userHome, ...env });
  h.bare = true;
  return h.connect().then(() => h);
}

for (const backend of ["tmux", "pty"] as const) {
  describe(`pane environment (${backend})`, () => {
    const harnesses: Harness[] = [];
    after(async () => {
      for (const h of harnesses.slice(1)) await h.close();
      await harnesses[0]?.destroy();
    });

    test("each client's panes get its own variables and no agent identity; an explicit env still passes anything", async () => {
      const first = await Harness.startField({ TERMHIVE_BACKEND: backend, FOO: "first", ANTHROPIC_API_KEY: "key-first", ...identity("1") });
      harnesses.push(first);
      const second = await startOn(first.home, first.env.HOME!, { TERMHIVE_BACKEND: backend, FOO: "second", ...identity("2") });
      harnesses.push(second);

      const a = await paneEnv(first, "from-first");
      const b = await paneEnv(second, "from-second");
      assert.equal(a.get("FOO"), "first");
      assert.ok(a.has("ANTHROPIC_API_KEY"), "the first client's own key (masked in output) is in its pane");
      assert.equal(b.get("FOO"), "second", [...b].join(" "));
      assert.equal(b.get("ANTHROPIC_API_KEY"), undefined, "the second client's pane got the first client's API key");
      for (const env of [a, b]) for (const name of IDENTITY_NAMES) assert.equal(env.get(name), undefined, `${name} reached a pane: ${[...env].join(" ")}`);

      const explicit = await paneEnv(second, "explicit", { env: { CLAUDE_CODE_SESSION_ID: "given", EXPLICIT: "yes" } });
      assert.equal(explicit.get("CLAUDE_CODE_SESSION_ID"), "given");
      assert.equal(explicit.get("EXPLICIT"), "yes");

      if (backend === "tmux") {
        const shown = spawnSync("tmux", ["-S", join(first.home, "tmux.sock"), "show-environment", "-g"], { encoding: "utf8" }).stdout;
        for (const name of IDENTITY_NAMES) assert.ok(!shown.split("\n").some((l) => l.startsWith(`${name}=`)), `the tmux server holds ${name}`);
      }
    });
  });
}

describe("pane environment: a tmux server that already holds agent identity", () => {
  let h: Harness | undefined;
  after(async () => h?.destroy());

  test("termhive clears it from the server's global environment; TERMHIVE_PANE_ENV_DENY drops more", async () => {
    h = await Harness.startField({ TERMHIVE_BACKEND: "tmux", TERMHIVE_PANE_ENV_DENY: "ANTHROPIC_API_KEY", ANTHROPIC_API_KEY: "secret", FOO: "mine" });
    // Another client started the server first, from inside an agent session.
    const sock = join(h.home, "tmux.sock");
    await h.close();
    spawnSync("tmux", ["-S", sock, "kill-server"]);
    const started = spawnSync("tmux", ["-S", sock, "-f", "/dev/null", "new-session", "-d", "-s", "other"], { env: { PATH: process.env.PATH!, HOME: h.env.HOME!, ...identity("old") } });
    assert.equal(started.status, 0, String(started.stderr));
    await h.connect();
    const env = await paneEnv(h, "after-old-server");
    assert.equal(env.get("FOO"), "mine");
    assert.equal(env.get("ANTHROPIC_API_KEY"), undefined);
    for (const name of IDENTITY_NAMES) assert.equal(env.get(name), undefined, `${name} reached a pane`);
    const shown = spawnSync("tmux", ["-S", sock, "show-environment", "-g"], { encoding: "utf8" }).stdout;
    for (const name of IDENTITY_NAMES) assert.ok(!shown.split("\n").some((l) => l.startsWith(`${name}=`)), `the tmux server still holds ${name}: ${shown}`);
  });
});
