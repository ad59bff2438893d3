// Issue 26 over gRPC: `sandbox` (a preset) or `sandbox_policy` (the explicit policy) on Open,
// AgentSpawn and HiveLayout panes, and the policy in AgentList. Judged by what the sandboxed
// shell can write.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { TermhiveClient } from "../../src/index.js";
import { findBwrap } from "../../src/sandbox/bwrap.js";
import { serve, type Served } from "./serve-process.js";
import { outsideTmp } from "../temp-folder.js";

const skip = process.platform === "linux" && findBwrap() ? false : "bubblewrap (bwrap) is not installed";

describe("gRPC sandbox", { skip }, () => {
  let s: Served;
  let c: TermhiveClient;
  let root = "";
  let userHome = "";
  let work = "";
  before(async () => {
    // Outside /tmp: the sandbox's /tmp is its own.
    root = mkdtempSync(join(outsideTmp(), "termhive-grpc-sandbox-"));
    userHome = join(root, "user");
    work = join(root, "work");
    for (const d of [userHome, work]) mkdirSync(d);
    // A program whose --norc stands for "its own permission checks off".
    writeFileSync(join(root, "profiles.json"), JSON.stringify({ profiles: { risky: { extends: "shell", command: "bash", dangerousFlags: ["--norc"] } } }));
    s = await serve([], join(root, "home"), { HOME: userHome, TERMHIVE_PROFILES: join(root, "profiles.json") });
    c = new TermhiveClient({ socketPath: s.grpcSocket, clientName: "grpc-sandbox" });
    await c.ready();
  });
  after(async () => {
    c?.closeConnection();
    await s?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("Open with an explicit policy: the shell writes only its write path; network off is kept", async () => {
    const opened = await c.open({ name: "gbox", command: "bash", cwd: work, sandbox: { write: [work], network: "off" } });
    assert.equal(opened.sandbox, `write ${work}; network off`);
    const inside = await c.run({ session: "gbox", command: "touch mine" });
    assert.equal(inside.exit_code, 0, inside.output);
    assert.ok(existsSync(join(work, "mine")));
    const home = await c.run({ session: "gbox", command: 'touch "$HOME/leak"' });
    assert.notEqual(home.exit_code, 0);
    assert.equal(existsSync(join(userHome, "leak")), false);
  });

  test("AgentSpawn with a preset and a layout pane with a policy; AgentList shows the policy", async () => {
    const spawned = await c.agentSpawn({ name: "gagent", command: "bash", cwd: work, sandbox: "readonly" });
    assert.equal(spawned.agent.sandbox, "readonly: read-only; network outside");
    await c.hiveLayout({ layout: "single", panes: [{ name: "glay", agent: "glay", command: "bash", cwd: work, sandbox: { write: [work], read: [work], network: "on" } }] });
    const agents = new Map((await c.agentList({})).agents.map((a) => [a.name, a.sandbox]));
    assert.equal(agents.get("gagent"), "readonly: read-only; network outside");
    assert.equal(agents.get("glay"), `write ${work}; read ${work}; network on`);
    const r = await c.run({ session: "glay", command: "touch here" });
    assert.ok(existsSync(join(work, "here")), r.output);
  });

  test("HiveSplit with a policy, and an agent split's confirm: the split pane writes only its write path", async () => {
    const split = await c.hiveSplit({ session: "gbox", direction: "right", name: "gsplit", command: "bash", cwd: work, sandbox: { write: [work], network: "on" } });
    assert.equal(split.name, "gsplit");
    const inside = await c.run({ session: "gsplit", command: "touch from-split" });
    assert.equal(inside.exit_code, 0, inside.output);
    assert.ok(existsSync(join(work, "from-split")));
    const home = await c.run({ session: "gsplit", command: 'touch "$HOME/split-leak"' });
    assert.notEqual(home.exit_code, 0);
    assert.match(home.output, /Read-only file system/);
    assert.equal(existsSync(join(userHome, "split-leak")), false);
    await assert.rejects(c.hiveSplit({ session: "gbox", direction: "below", agent: "grisky", profile: "risky", command: "bash --norc", cwd: work }), /--norc .*no sandbox.*confirm: true/);
    await c.hiveSplit({ session: "gbox", direction: "below", agent: "grisky", name: "grisky", profile: "risky", command: "bash --norc", cwd: work, confirm: true });
    await c.run({ session: "grisky", command: 'touch "$HOME/split-confirmed"' });
    assert.ok(existsSync(join(userHome, "split-confirmed")));
    await assert.rejects(c.hiveLayout({ layout: "single", panes: [{ name: "glr", agent: "glr", profile: "risky", command: "bash --norc", cwd: work }] }), /pass confirm: true on its pane/);
    const confirmed = await c.hiveLayout({ layout: "single", panes: [{ name: "glr", agent: "glr", profile: "risky", command: "bash --norc", cwd: work, confirm: true }] });
    assert.equal(confirmed.panes[0]!.agent, "glr");
  });
});
