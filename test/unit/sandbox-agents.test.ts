// Which sandbox an agent gets, the dangerous-flag refusal, a profile's sandbox fields and the
// relay folder's requests (what a sandboxed pane may hand to the hive).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentSandbox, dangerRefusal, dangerousFlagsIn } from "../../src/sandbox/agent-rules.js";
import { RELAY_MAX_PENDING, RELAY_MAX_PENDING_BYTES, RELAY_MAX_REQUEST_BYTES, makeRelayDir, takeRelayRequests, writeRelayRequest } from "../../src/sandbox/relay.js";
import { ProfileRegistry, parseProfilesConfig } from "../../src/hive/programs/profiles.js";
import { sandboxPresetFrom } from "../../src/config.js";
import { remoteSandboxLaunch } from "../../src/sandbox/remote-launch.js";
import { parseFacts } from "../../src/backends/remote/bootstrap.js";
import { tempFolder } from "../temp-folder.js";

describe("agent sandbox rules", () => {
  test("the call's sandbox, else the profile's, else TERMHIVE_SANDBOX's", () => {
    assert.equal(agentSandbox("readonly", "worktree", "worktree"), "readonly");
    assert.equal(agentSandbox(undefined, "worktree", "readonly"), "worktree");
    assert.equal(agentSandbox(undefined, null, "readonly"), "readonly");
    assert.equal(agentSandbox(undefined, null, null), undefined);
  });

  test("dangerous flags: whole words, two-word flags in a row or joined by =", () => {
    const flags = ["--yolo", "--sandbox danger-full-access"];
    assert.deepEqual(dangerousFlagsIn("codex --yolo", flags), ["--yolo"]);
    assert.deepEqual(dangerousFlagsIn("codex --sandbox danger-full-access", flags), ["--sandbox danger-full-access"]);
    assert.deepEqual(dangerousFlagsIn("codex --sandbox=danger-full-access", flags), ["--sandbox danger-full-access"]);
    assert.deepEqual(dangerousFlagsIn("codex --sandbox workspace-write", flags), []);
    assert.deepEqual(dangerousFlagsIn("codex --yolo-not", flags), []);
    assert.deepEqual(dangerousFlagsIn("codex 'say --yolo please'", flags), []);
    assert.deepEqual(dangerousFlagsIn(undefined, flags), []);
  });

  test("refused only with a dangerous flag, no sandbox and no confirm", () => {
    const flags = ["--dangerously-skip-permissions"];
    assert.match(dangerRefusal("a", "claude --dangerously-skip-permissions", flags, undefined, undefined) ?? "", /agent 'a' would run with --dangerously-skip-permissions .*confirm: true/);
    assert.equal(dangerRefusal("a", "claude --dangerously-skip-permissions", flags, "worktree", undefined), null);
    assert.equal(dangerRefusal("a", "claude --dangerously-skip-permissions", flags, undefined, true), null);
    assert.equal(dangerRefusal("a", "claude", flags, undefined, undefined), null);
  });

  test("profiles: sandbox and dangerousFlags are validated and inherited; the built-ins name the real flags", () => {
    const reg = new ProfileRegistry(parseProfilesConfig({ profiles: { mine: { extends: "codex", sandbox: { write: ["."], network: "off" } } } }));
    assert.deepEqual(reg.get("mine").sandbox, { write: ["."], network: "off" });
    assert.ok(reg.get("mine").dangerousFlags.includes("--yolo"));
    assert.ok(reg.get("claude").dangerousFlags.includes("--dangerously-skip-permissions"));
    assert.equal(reg.get("shell").sandbox, null);
    assert.throws(() => parseProfilesConfig({ profiles: { bad: { sandbox: "everything" } } }), /sandbox/);
  });

  test("TERMHIVE_SANDBOX: a preset, or off", () => {
    assert.equal(sandboxPresetFrom("worktree"), "worktree");
    assert.equal(sandboxPresetFrom(" off "), null);
    assert.equal(sandboxPresetFrom(undefined), null);
    assert.throws(() => sandboxPresetFrom("yes"), /TERMHIVE_SANDBOX="yes" is invalid/);
  });
});

describe("relay folder", () => {
  test("requests come back oldest first, once; malformed ones and half-written files are not taken", () => {
    const dir = makeRelayDir(tempFolder("termhive-relay-"), "s1");
    writeRelayRequest(dir, { kind: "msg", to: "b", text: "one" });
    writeRelayRequest(dir, { kind: "status", args: ["working", "x"] });
    writeFileSync(join(dir, "000000000000000-1-bad.json"), "{not json");
    writeFileSync(join(dir, "000000000000000-2-kind.json"), JSON.stringify({ kind: "exec", command: "rm -rf /" }));
    writeFileSync(join(dir, ".half.tmp"), "{");
    const first = takeRelayRequests(dir);
    assert.deepEqual(first.requests, [{ kind: "msg", to: "b", text: "one" }, { kind: "status", args: ["working", "x"] }]);
    assert.deepEqual(first.refused.map((r) => [r.file, r.reason]).sort(), [["000000000000000-1-bad.json", "not a request (malformed)"], ["000000000000000-2-kind.json", "not a request (malformed)"]]);
    assert.deepEqual(takeRelayRequests(dir), { requests: [], refused: [], more: false });
    assert.deepEqual(readdirSync(dir), [".half.tmp"]);
  });
});

describe("relay folder bounds", () => {
  test("a request over 256 KiB, or one more past 1000 waiting, is refused before anything is written", () => {
    const dir = makeRelayDir(tempFolder("termhive-relay-"), "s2");
    assert.throws(() => writeRelayRequest(dir, { kind: "msg", to: "b", text: "x".repeat(RELAY_MAX_REQUEST_BYTES) }), /over the relay's limit of 256 KiB a request; nothing was sent/);
    assert.deepEqual(readdirSync(dir), []);
    for (let i = 0; i < RELAY_MAX_PENDING; i++) writeFileSync(join(dir, `${String(i).padStart(15, "0")}-f.json`), "{}");
    assert.throws(() => writeRelayRequest(dir, { kind: "status", args: ["idle"] }), /is full: 1000 requests .*nothing was sent/);
    assert.equal(readdirSync(dir).length, RELAY_MAX_PENDING);
  });

  test("past 8 MiB waiting, a request that would pass it is refused though far fewer than 1000 wait", () => {
    const dir = makeRelayDir(tempFolder("termhive-relay-"), "s4");
    // 40 requests of 200 KiB: 8000 KiB, 192 KiB short of the bound.
    const waiting = 40;
    const each = 200 * 1024;
    for (let i = 0; i < waiting; i++) writeFileSync(join(dir, `${String(i).padStart(15, "0")}-m.json`), Buffer.alloc(each, 0x20));
    assert.ok(waiting * each < RELAY_MAX_PENDING_BYTES);
    writeRelayRequest(dir, { kind: "status", args: ["idle"] });
    assert.throws(() => writeRelayRequest(dir, { kind: "msg", to: "b", text: "x".repeat(each) }), /is full: 41 requests \(8001 KiB\) .*8192 KiB.*nothing was sent/);
    assert.equal(readdirSync(dir).length, waiting + 1);
  });

  test("a file over 256 KiB is removed unread; past 1000 in one scan, the rest are removed unapplied", () => {
    const dir = makeRelayDir(tempFolder("termhive-relay-"), "s3");
    writeFileSync(join(dir, "000000000000000-big.json"), Buffer.alloc(RELAY_MAX_REQUEST_BYTES + 10, 0x20));
    for (let i = 1; i <= RELAY_MAX_PENDING + 5; i++) writeFileSync(join(dir, `${String(i).padStart(15, "0")}-s.json`), JSON.stringify({ kind: "status", args: ["idle"] }));
    const { requests, refused } = takeRelayRequests(dir);
    assert.deepEqual(refused[0], { file: "000000000000000-big.json", bytes: RELAY_MAX_REQUEST_BYTES + 10, reason: "over the limit of 256 KiB a request" });
    // The big one counts among the 1000 scanned.
    assert.equal(requests.length, RELAY_MAX_PENDING - 1);
    assert.equal(refused.filter((r) => r.reason.startsWith("past the 1000 requests")).length, 6);
    assert.deepEqual(readdirSync(dir), []);
  });
});

describe("remote hosts", () => {
  const facts = (bwrap: string) => parseFacts("box", ["home /home/u", "shell /home/u/.local/state/termhive/shell-abc", "login /bin/bash", "tmux /usr/bin/tmux", ...(bwrap ? [`bwrap ${bwrap}`] : [])].map((l) => `termhive-host-v1 ${l}`).join("\n"));
  const pane = { argv: ["/bin/bash", "--rcfile", "x"], cwd: "/home/u/proj", sessionId: "s9", shell: true };

  test("a host without bwrap is refused, naming the host and the fix", () => {
    assert.equal(facts("").bwrap, null);
    assert.throws(() => remoteSandboxLaunch("worktree", pane, facts("")), /host box has no bubblewrap .*apt-get install bubblewrap\); nothing was opened/);
  });

  test("with bwrap: the host's bwrap, its paths, the shell's status files made first", () => {
    const launch = remoteSandboxLaunch("worktree", pane, facts("/usr/bin/bwrap"));
    assert.deepEqual(launch.policy, { preset: "worktree", write: ["/home/u/proj"], read: "all", network: "on" });
    assert.equal(launch.relayDir, undefined);
    assert.deepEqual(launch.argv.slice(0, 2), ["/bin/sh", "-c"]);
    assert.deepEqual(launch.argv.slice(4, 6), ["/home/u/.local/state/termhive/seccomp.bpf", "/usr/bin/bwrap"]);
    // bwrap binds existing files only: the launcher makes the shell's three files first.
    for (const mark of ["status", "secret", "run"]) {
      assert.ok(launch.argv[2]!.includes(`/home/u/.local/state/termhive/shell/${mark}.s9`), mark);
    }
    assert.match(launch.argv[2]!, /for m in [^;]*status\.s9[^;]*; do : >>"\$m" \|\| exit 1; done/);
    // The launcher writes the seccomp filter for the host's machine and hands it to bwrap.
    assert.match(launch.argv[2]!, /case \$\(uname -m\) in x86_64\) printf '(\\\d{3})+';; aarch64\|arm64\) printf '(\\\d{3})+';;/);
    assert.match(launch.argv[2]!, /exec "\$b" --seccomp 9 "\$@" 9<"\$f"/);
    const i = launch.argv.indexOf("/home/u/.local/state/termhive/shell-abc");
    assert.equal(launch.argv[i - 1], "--ro-bind");
    assert.deepEqual(launch.argv.slice(-4), ["--", "/bin/bash", "--rcfile", "x"]);
  });
});
