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

describe("pane environment: a lead's full environment reaching its agents", () => {
  let h: Harness | undefined;
  after(async () => h?.destroy());

  // Issue 32 §5: the lead's session identity is dropped by exact name; the user's own provider
  // settings (Bedrock, Vertex, output tokens, OAuth, proxies) reach the agents it spawns.
  test("a spawned agent gets the user's provider settings and none of the lead's identity", async () => {
    const lead = {
      ...identity("lead"),
      CLAUDE_CODE_CHILD_SESSION: "1",
      CLAUDE_CODE_SESSION_ATTENDED: "1",
      CLAUDE_CODE_MESSAGING_TOKEN: "lead-token",
      CLAUDE_CODE_EXECPATH: "/opt/claude/bin/claude",
      CLAUDE_PID: "4242",
      CLAUDE_ENV_FILE: "/tmp/lead-env-file",
      CODEX_SANDBOX: "seccomp",
      CODEX_TOOL_CALL_ID: "call-lead",
      AI_AGENT: "claude-code_2.1.332_agent",
    };
    const user = {
      CLAUDE_CODE_USE_BEDROCK: "1",
      CLAUDE_CODE_USE_VERTEX: "1",
      CLAUDE_CODE_MAX_OUTPUT_TOKENS: "32000",
      CLAUDE_CODE_OAUTH_TOKEN: "user-oauth",
      CLAUDE_CODE_HTTPS_PROXY: "http://proxy.example:3128",
      CLAUDE_CODE_SKIP_BEDROCK_AUTH: "1",
      CODEX_HOME: "/tmp/user-codex-home",
      CODEX_CA_CERTIFICATE: "/etc/ssl/user-ca.pem",
      HTTPS_PROXY: "http://proxy.example:3128",
      AWS_REGION: "eu-west-1",
    };
    h = await Harness.startField({ TERMHIVE_BACKEND: "tmux", ...lead, ...user });
    await h.ok("agent_spawn", { name: "mate", command: "bash", profile: "shell" });
    const r = await h.ok("terminal_run", { session: "mate", command: "env | LC_ALL=C sort" });
    const env = new Map(String(r.output).split(/\r?\n/).filter((l) => l.includes("=")).map((l) => [l.slice(0, l.indexOf("=")), l.slice(l.indexOf("=") + 1)]));
    for (const name of Object.keys(lead)) assert.equal(env.get(name), undefined, `the lead's ${name} reached the agent`);
    for (const [name, value] of Object.entries(user)) {
      // Values that look like secrets are masked in output: their presence is what counts.
      assert.ok(env.has(name), `the user's ${name} did not reach the agent: ${[...env.keys()].join(" ")}`);
      if (!/TOKEN/.test(name)) assert.equal(env.get(name), value, name);
    }
  });
});
