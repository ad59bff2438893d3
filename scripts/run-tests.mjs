// Runs every test/**/*.test.ts with node's own runner (TypeScript through tsx).
// Unit tests import src/ directly; e2e tests spawn the built server in dist/.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";

function collect(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...collect(path));
    else if (entry.endsWith(".test.ts")) found.push(path);
  }
  return found;
}

const only = process.argv.slice(2);
const files = (only.length ? only.flatMap((p) => (statSync(p).isDirectory() ? collect(p) : [p])) : collect("test")).sort();
// The MCP conformance runner (and the Node 22 it needs) is pinned in scripts/conformance and
// installed there only when a test about to run needs it, so a fresh clone's `npm test`
// passes without a separate step; .ci/run may have installed it already.
const CONFORMANCE = "scripts/conformance";
function conformanceInstalled() {
  const deps = JSON.parse(readFileSync(join(CONFORMANCE, "package.json"), "utf8")).dependencies;
  // The 2025 runner and the 2026 one (an npm alias: "npm:@modelcontextprotocol/conformance@<version>").
  const pinnedAt = (name) => {
    const installed = join(CONFORMANCE, "node_modules", name, "package.json");
    return existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === deps[name].replace(/^npm:.*@/, "");
  };
  return existsSync(join(CONFORMANCE, "node_modules/node/bin/node")) && pinnedAt("@modelcontextprotocol/conformance") && pinnedAt("conformance-2026");
}
if (files.some((file) => /http-conformance(-2026)?\.test\.ts$/.test(file)) && !process.env.TERMHIVE_SKIP_CONFORMANCE && !conformanceInstalled()) {
  console.log(`installing the MCP conformance runner: npm ci --prefix ${CONFORMANCE}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", CONFORMANCE, "--no-audit", "--no-fund"], { stdio: "inherit" });
  // A failed install is not fatal here: the conformance test then fails saying how to install it.
  if (install.status !== 0) console.error(`npm ci --prefix ${CONFORMANCE} failed (exit ${install.status ?? install.signal}); the conformance test will say what is missing`);
}

// The real agent programs (Claude Code, Codex CLI) the hive's end-to-end tests run offline
// against loopback stand-ins of their APIs, pinned in scripts/agents and installed on first use
// by a test that needs them (files named real-*.test.ts). A failed install is not fatal: those
// tests then skip, saying why.
const AGENTS = "scripts/agents";
function agentProgramsInstalled() {
  const pinned = JSON.parse(readFileSync(join(AGENTS, "package.json"), "utf8")).dependencies;
  return Object.entries(pinned).every(([name, version]) => {
    const installed = join(AGENTS, "node_modules", name, "package.json");
    return existsSync(installed) && JSON.parse(readFileSync(installed, "utf8")).version === version;
  });
}
if (files.some((file) => /(^|\/)real-[^/]*\.test\.ts$/.test(file)) && !process.env.TERMHIVE_SKIP_REAL_AGENTS && !agentProgramsInstalled()) {
  console.log(`installing the real agent programs: npm ci --prefix ${AGENTS}`);
  const npm = process.platform === "win32" ? "npm.cmd" : "npm";
  const install = spawnSync(npm, ["ci", "--prefix", AGENTS, "--no-audit", "--no-fund"], { stdio: "inherit" });
  if (install.status !== 0) console.error(`npm ci --prefix ${AGENTS} failed (exit ${install.status ?? install.signal}); the real-agent tests will skip, saying why`);
}

// One file at a time by default: the end-to-end files each start servers, tmux and shells,
// and on a 2-core machine running them side by side made timing-sensitive waits flaky.
const concurrency = process.env.TERMHIVE_TEST_CONCURRENCY ?? "1";
// The tests' temporary folders (homes, sockets, fixtures) all go in one folder of this run
// (TMPDIR), so a run leaves nothing behind however a test ends: what is left there, and any
// tmux server whose socket was in it, is removed and named when the run is over. Each test
// cleans up after itself (test/temp-folder.ts, test/tmux-server.ts): a leftover is a bug in a
// test, and fails the run.

/**
 * Folders in TMPDIR that are no test's to remove: tsx's compile cache (tsx-<uid>), and the
 * runtime folder an interactive fish makes there when XDG_RUNTIME_DIR is unset (fish.<user>,
 * as /tmp/fish.<user> outside the tests), shared by every fish of the user and kept by fish.
 */
const notLeftover = (name) => /^tsx-\d+$/.test(name) || name === `fish.${userInfo().username}`;
const testTmp = mkdtempSync(join(process.env.TMPDIR || tmpdir(), "termhive-tests-"));
// The sandbox tests make their folders outside /tmp (a sandbox's /tmp is its own): in a folder
// of this run's own in /var/tmp (TERMHIVE_TEST_OUTSIDE_TMP, read by test/temp-folder.ts), so two
// runs side by side never sweep each other's folders; what is left in it counts as left behind.
const OUTSIDE_TMP = "/var/tmp";
const outsideRun = mkdtempSync(join(OUTSIDE_TMP, "termhive-run-"));
// node's --test-timeout bounds each file as a whole as well as each test in it: it is a guard
// against a hang, not a timing check, so it leaves room for a file of many tests on a loaded
// 2-core machine (at load 18, dashboard.test.ts, field.test.ts and hostile.test.ts were cut at
// 90 s with none of their tests failed so far). TERMHIVE_TEST_TIMEOUT_MS changes it.
const testTimeoutMs = process.env.TERMHIVE_TEST_TIMEOUT_MS ?? "300000";
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, `--test-timeout=${testTimeoutMs}`, "--test-reporter=spec", ...files],
  { stdio: "inherit", env: { ...process.env, TMPDIR: testTmp, TERMHIVE_TEST_OUTSIDE_TMP: outsideRun } },
);
const leaked = [cleanUp(testTmp), cleanUp(outsideRun)].some(Boolean);
if (leaked) console.log("FAIL: the tests must remove the folders they make and end the tmux servers they start (test/temp-folder.ts, test/tmux-server.ts)");
process.exit(result.status !== 0 ? (result.status ?? 1) : leaked ? 1 : 0);

/**
 * Ends the tmux servers started in `dir` and removes it; says what the tests left there; true if
 * they left anything.
 */
function cleanUp(dir) {
  const ps = spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout ?? "";
  const servers = ps.split("\n")
    .map((line) => /^\s*(\d+)\s+(.*)$/.exec(line))
    .filter((m) => m && /(^|\/)tmux\b/.test(m[2].split(" ")[0]) && m[2].includes(dir + "/"))
    .map((m) => ({ pid: Number(m[1]), args: m[2] }));
  for (const server of servers) {
    try {
      process.kill(server.pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
  const left = existsSync(dir) ? readdirSync(dir).filter((name) => !notLeftover(name)) : [];
  rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  if (!servers.length && !left.length) return false;
  console.log(`the tests left ${servers.length} tmux server(s) and ${left.length} temporary folder(s); removed:`);
  for (const s of servers) console.log(`  tmux pid ${s.pid}: ${s.args}`);
  for (const name of left) console.log(`  ${join(dir, name)}`);
  return true;
}
