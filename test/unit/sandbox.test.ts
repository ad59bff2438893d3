// The sandbox policy (presets, checks) and its bubblewrap command line.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync, chmodSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { bwrapArgs, findBwrap } from "../../src/sandbox/bwrap.js";
import { seccompFilter } from "../../src/sandbox/seccomp.js";
import { findPasta } from "../../src/sandbox/network.js";
import { describePolicy, parseStoredPolicy, resolvePolicy, sandboxOption } from "../../src/sandbox/policy.js";
import { tempFolder } from "../temp-folder.js";

const dir = tempFolder("termhive-sandbox-unit-");
const home = join(dir, "home");
const work = join(dir, "work");
mkdirSync(join(home, ".claude"), { recursive: true });
mkdirSync(work);
const ctx = { termhiveHome: join(home, ".termhive"), sessionId: "s1", shellFiles: true, cwd: work, support: ["/opt/termhive"], relayDir: join(home, ".termhive", "relay", "s1") };

/** The argument pairs/triples of one bwrap option, in order. */
function option(args: string[], name: string, arity: number): string[][] {
  return args.flatMap((a, i) => (a === name ? [args.slice(i + 1, i + 1 + arity)] : []));
}

describe("sandbox policy", () => {
  test("worktree writes cwd and the program's own existing config dirs; readonly writes nothing", () => {
    assert.deepEqual(resolvePolicy("worktree", { cwd: work, home, program: "claude --verbose" }), { preset: "worktree", write: [work, join(home, ".claude")], read: "all", network: "outside" });
    // An agent given a HOME of its own (env.HOME): its program folders there, not the server's.
    const own = join(home, "agent-home");
    mkdirSync(join(own, ".claude"), { recursive: true });
    assert.deepEqual(resolvePolicy("worktree", { cwd: work, home, program: "claude", programHome: own }).write, [work, join(own, ".claude")]);
    assert.deepEqual(resolvePolicy("worktree", { cwd: work, home, program: "bash" }).write, [work]);
    assert.deepEqual(resolvePolicy("readonly", { cwd: work, home, program: "bash" }).write, []);
  });

  test("relative paths are taken from cwd; a missing one is an error that names it", () => {
    assert.deepEqual(resolvePolicy({ write: ["."], network: "off" }, { cwd: work, home, program: "bash" }).write, [work]);
    assert.throws(() => resolvePolicy({ write: ["missing"], network: "off" }, { cwd: work, home, program: "bash" }), /sandbox write path ".*work\/missing" does not exist/);
    assert.throws(() => resolvePolicy({ write: [], read: [home], network: "on" }, { cwd: work, home, program: "bash" }), /cwd .* is not in the sandbox's read or write paths/);
  });

  test("a write path that holds the home folder is refused, whatever its spelling: the worktree preset in ~, ~, an ancestor, one granted before", () => {
    const refused = /sandbox refused, nothing was opened: .* (is|holds) your home folder.*, and files there run code outside the sandbox .*; (open the pane in a project folder|name folders inside it|open it with a new sandbox)/;
    assert.throws(() => resolvePolicy("worktree", { cwd: home, home, program: "bash" }), refused);
    assert.throws(() => resolvePolicy({ write: ["~"], network: "on" }, { cwd: work, home, program: "bash" }), refused);
    assert.throws(() => resolvePolicy({ write: [dir], network: "on" }, { cwd: work, home, program: "bash" }), refused);
    assert.throws(() => resolvePolicy({ granted: { write: [home], read: "all", network: "on" } }, { cwd: work, home, program: "bash" }), refused);
    // A folder in the home is the policy's to give; "~/x" is taken from the home, not from cwd.
    assert.deepEqual(resolvePolicy({ write: ["~/.claude"], network: "on" }, { cwd: work, home, program: "bash" }).write, [join(home, ".claude")]);
  });

  test("the schema takes presets and explicit policies and refuses unknown keys and modes", () => {
    assert.equal(sandboxOption.safeParse("worktree").success, true);
    assert.equal(sandboxOption.safeParse({ write: ["/w"], network: "loopback", env: "clean" }).success, true);
    assert.equal(sandboxOption.safeParse("everything").success, false);
    assert.equal(sandboxOption.safeParse({ write: ["/w"], network: "some" }).success, false);
    assert.equal(sandboxOption.safeParse({ write: ["/w"], network: "on", writes: [] }).success, false);
  });

  test("a policy that does not parse names the field at fault and what it takes", () => {
    const problem = (input: unknown): string => {
      const r = sandboxOption.safeParse(input);
      assert.equal(r.success, false);
      return r.error!.issues.map((issue) => issue.message).join(" | ");
    };
    assert.match(problem({ write: ["/var/tmp/x"] }), /^sandbox\.network is missing: it takes one of outside, on, off, loopback \(required\); a policy is \{write, read\?, network, loopback_ports\?, env\?, unix_sockets\?\}$/);
    assert.match(problem({ write: ["/w"], network: "none" }), /^sandbox\.network is invalid: it takes one of outside, on, off, loopback/);
    assert.match(problem({ write: ["/w"], network: "outside", loopback_ports: [70000] }), /^sandbox\.loopback_ports is invalid: it takes a list of at most 32 TCP port numbers/);
    assert.match(problem({ write: ["/w"], network: "outside", loopback_ports: Array.from({ length: 33 }, (_, i) => i + 1) }), /^sandbox\.loopback_ports is invalid/);
    assert.match(problem({ write: "/w", network: "on" }), /^sandbox\.write is invalid: it takes a list of paths the program may write/);
    assert.match(problem({ network: "on" }), /^sandbox\.write is missing/);
    assert.match(problem({ write: ["/w"], network: "on", read: "some" }), /^sandbox\.read is invalid: it takes "all" or a list of paths/);
    assert.match(problem({ write: ["/w"], network: "on", writes: [] }), /"writes"/);
    assert.match(problem("everything"), /unknown sandbox preset "everything"/);
  });

  test("kept on the pane as JSON and read back; an unreadable value is no policy", () => {
    const p = resolvePolicy({ write: [work], network: "off" }, { cwd: work, home, program: "bash" });
    assert.deepEqual(parseStoredPolicy(JSON.stringify(p)), p);
    assert.equal(parseStoredPolicy("{not json"), undefined);
    assert.equal(parseStoredPolicy(JSON.stringify({ write: "x" })), undefined);
    assert.equal(describePolicy(p), `write ${work}; network off`);
  });
});

describe("bwrap arguments", () => {
  test("read-only root, private /tmp, own /dev and /proc, TERMHIVE_HOME covered after the writable paths, dies with its parent", () => {
    const args = bwrapArgs({ write: [join(home, ".local")], read: "all", network: "on" }, { ...ctx, termhiveHome: join(home, ".local", "state", "termhive"), otherHomes: ["/other/home"], seccompFd: 9 });
    assert.deepEqual(args.slice(0, 3), ["--ro-bind", "/", "/"]);
    assert.deepEqual(option(args, "--tmpfs", 1), [["/dev/shm"], ["/tmp"], ["/other/home"], [join(home, ".local", "state", "termhive")]]);
    assert.ok(args.includes("--unshare-pid") && args.includes("--die-with-parent"));
    assert.equal(args.includes("--unshare-net"), false);
    // A root server's pane keeps no capability (mount, umount, ptrace would undo the sandbox).
    assert.deepEqual(option(args, "--cap-drop", 1), [["ALL"]]);
    // A write path holding TERMHIVE_HOME is bound before the tmpfs that hides it again, and the
    // folder between them is pinned (bound onto itself) so it cannot be renamed away.
    const at = (a: string, b: string) => args.findIndex((x, i) => x === a && args[i + 1] === b);
    assert.ok(at("--bind", join(home, ".local")) < at("--tmpfs", join(home, ".local", "state", "termhive")), args.join(" "));
    assert.ok(at("--bind", join(home, ".local", "state")) > at("--bind", join(home, ".local")), args.join(" "));
    assert.deepEqual(option(args, "--seccomp", 1), [["9"]]);
    assert.deepEqual(option(args, "--chdir", 1), [[work]]);
  });

  test("the read-only list and private copies go over the write paths, the folders between them pinned, before the home cover", () => {
    const proj = join(home, "proj");
    const shield = { readOnly: [join(proj, "sub", ".git", "config")], copies: [{ source: "/c/0-claude.json", target: join(home, ".claude.json"), writable: true }] };
    const args = bwrapArgs({ write: [proj], read: "all", network: "on" }, { ...ctx, shield });
    const at = (a: string, b: string) => args.findIndex((x, i) => x === a && args[i + 1] === b);
    // The write path, then each folder between it and the protected file (outermost first), then the file read-only.
    assert.ok(at("--bind", proj) < at("--bind", join(proj, "sub")));
    assert.ok(at("--bind", join(proj, "sub")) < at("--bind", join(proj, "sub", ".git")));
    assert.ok(at("--bind", join(proj, "sub", ".git")) < at("--ro-bind", join(proj, "sub", ".git", "config")));
    assert.ok(at("--ro-bind", join(proj, "sub", ".git", "config")) < at("--bind", "/c/0-claude.json"));
    assert.ok(at("--bind", "/c/0-claude.json") < at("--tmpfs", ctx.termhiveHome));
  });

  test("a cwd under /tmp is bound read-only into the private /tmp", () => {
    const args = bwrapArgs({ write: [], read: "all", network: "on" }, { ...ctx, cwd: "/tmp/proj" });
    assert.ok(option(args, "--ro-bind", 2).some(([p]) => p === "/tmp/proj"));
    assert.ok(args.indexOf("/tmp/proj") > args.indexOf("/tmp"));
  });

  test("TERMHIVE_HOME is hidden but for the shim, hook settings, this session's own shell status files and relay folder", () => {
    const args = bwrapArgs({ write: [], read: "all", network: "off" }, ctx);
    const shell = join(ctx.termhiveHome, "shell");
    assert.deepEqual(option(args, "--bind", 2), [
      [join(shell, "status.s1"), join(shell, "status.s1")],
      [join(shell, "secret.s1"), join(shell, "secret.s1")],
      [join(shell, "run.s1"), join(shell, "run.s1")],
      [ctx.relayDir, ctx.relayDir],
    ]);
    assert.deepEqual(option(args, "--ro-bind-try", 2), [
      [join(ctx.termhiveHome, "bin"), join(ctx.termhiveHome, "bin")],
      [join(ctx.termhiveHome, "hooks"), join(ctx.termhiveHome, "hooks")],
    ]);
    assert.ok(args.includes("--unshare-net"));
    assert.deepEqual(option(bwrapArgs({ write: [], read: "all", network: "on" }, { ...ctx, shellFiles: false }), "--bind", 2), [[ctx.relayDir, ctx.relayDir]]);
  });

  test("a read list mounts the system, the listed paths and termhive's own support paths only", () => {
    const args = bwrapArgs({ write: [], read: ["/srv/work"], network: "loopback" }, { ...ctx, cwd: "/srv/work" });
    assert.equal(args.includes("/") && args[args.indexOf("/") - 1] === "--ro-bind", false);
    assert.deepEqual(option(args, "--ro-bind", 2), [["/srv/work", "/srv/work"], ["/opt/termhive", "/opt/termhive"]]);
    assert.ok(option(args, "--ro-bind-try", 2).some(([p]) => p === "/usr"));
    assert.ok(args.includes("--unshare-net"));
  });

  test("termhive's own files installed under /tmp stay readable under the private /tmp", () => {
    const inTmp = { ...ctx, cwd: "/srv/work", support: ["/tmp/ci/termhive/src/shell", "/usr/bin", "/tmp/ci/termhive"] };
    const args = bwrapArgs({ write: [], read: "all", network: "on" }, inTmp);
    const tmpfs = args.indexOf("/tmp");
    const rebound = option(args, "--ro-bind", 2).filter(([p]) => p!.startsWith("/tmp/"));
    assert.deepEqual(rebound, [["/tmp/ci/termhive/src/shell", "/tmp/ci/termhive/src/shell"], ["/tmp/ci/termhive", "/tmp/ci/termhive"]]);
    assert.ok(args.indexOf("/tmp/ci/termhive") > tmpfs, "bound after the tmpfs that would hide it");
  });

  test("findBwrap looks on PATH only", () => {
    const bin = join(dir, "bin");
    mkdirSync(bin);
    assert.equal(findBwrap(bin), null);
    writeFileSync(join(bin, "bwrap"), "#!/bin/sh\n");
    chmodSync(join(bin, "bwrap"), 0o755);
    assert.equal(findBwrap(`/nonexistent:${bin}`), join(bin, "bwrap"));
  });
});

describe("seccomp filter", () => {
  test("x86_64 and arm64 get a filter of whole instructions that ends allowing or refusing; other machines none", () => {
    for (const arch of ["x64", "arm64"] as const) {
      const bytes = seccompFilter(arch)!;
      assert.ok(bytes.length > 0 && bytes.length % 8 === 0);
      // The last instruction returns EPERM (SECCOMP_RET_ERRNO | 1): what every refused call gets.
      assert.equal(bytes.readUInt16LE(bytes.length - 8), 0x06);
      assert.equal(bytes.readUInt32LE(bytes.length - 4), 0x00050001);
    }
    assert.equal(seccompFilter("ia32"), null);
  });
});

describe("seccomp filter with unix sockets given", () => {
  test("one check fewer (socket's family), the same ending", () => {
    const closed = seccompFilter("x64")!;
    const open = seccompFilter("x64", { unixSockets: true })!;
    assert.equal(open.length, closed.length - 8);
    assert.deepEqual(open.subarray(open.length - 8), closed.subarray(closed.length - 8));
  });

  test("the schema takes unix_sockets: allow and nothing else there", () => {
    assert.equal(sandboxOption.safeParse({ write: [], network: "on", unix_sockets: "allow" }).success, true);
    assert.equal(sandboxOption.safeParse({ write: [], network: "on", unix_sockets: "yes" }).success, false);
  });
});

describe("sandbox launch: termhive homes and install folders", { skip: findBwrap() ? false : "bubblewrap (bwrap) is not installed" }, () => {
  test("a default home by either rule ($XDG_STATE_HOME/termhive, ~/.local/state/termhive), missing and held by a write path, is made and covered", async () => {
    const { sandboxLaunch } = await import("../../src/sandbox/launch.js");
    const user = join(dir, "launch-user");
    mkdirSync(join(user, "xdg"), { recursive: true });
    mkdirSync(join(user, ".local"), { recursive: true });
    mkdirSync(join(user, "proj"));
    const own = join(dir, "launch-own");
    mkdirSync(join(own, "shell"), { recursive: true });
    const pane = { argv: ["bash"], home: user, cwd: join(user, "proj"), program: "bash", termhiveHome: own, sessionId: "l1", shell: false, stateHome: join(user, "xdg") };
    const { argv } = await sandboxLaunch({ write: [join(user, "xdg"), join(user, ".local")], network: "on" }, pane);
    for (const made of [join(user, "xdg", "termhive"), join(user, ".local", "state", "termhive")]) {
      assert.ok(option(argv, "--tmpfs", 1).some(([p]) => p === made), `${made} not covered: ${argv.join(" ")}`);
    }
    // ~/.local/lib (pip --user) made too, and put back read-only.
    assert.ok(option(argv, "--ro-bind", 2).some(([p]) => p === join(user, ".local", "lib")), argv.join(" "));
  });

  test("without pasta a preset (network outside) is refused naming the package; the environment's loopback API port is in the policy", async () => {
    const { sandboxLaunch } = await import("../../src/sandbox/launch.js");
    const user = join(dir, "net-user");
    mkdirSync(join(user, "proj"), { recursive: true });
    const own = join(dir, "net-own");
    mkdirSync(join(own, "shell"), { recursive: true });
    const pane = { argv: ["bash"], home: user, cwd: join(user, "proj"), program: "bash", termhiveHome: own, sessionId: "n1", shell: false, env: { ANTHROPIC_BASE_URL: "http://127.0.0.1:8123/v1", OPENAI_BASE_URL: "https://api.example.com/v1" } };
    // A PATH with bwrap and no pasta.
    const bin = join(dir, "net-bin");
    mkdirSync(bin);
    symlinkSync(findBwrap()!, join(bin, "bwrap"));
    const saved = process.env.PATH;
    process.env.PATH = bin;
    try {
      await assert.rejects(sandboxLaunch("readonly", pane), /needs pasta, which is not installed here: install it: apt-get install passt .*; nothing was opened/);
      assert.equal((await sandboxLaunch({ write: [], network: "on" }, pane)).policy.network, "on");
    } finally {
      process.env.PATH = saved;
    }
    if (!findPasta()) return;
    const { policy, argv } = await sandboxLaunch("readonly", pane);
    assert.deepEqual(policy, { preset: "readonly", write: [], read: "all", network: "outside", loopback_ports: [8123] });
    assert.ok(argv.includes("8123") && argv.includes("--sync-fd"), argv.join(" "));
  });
});
