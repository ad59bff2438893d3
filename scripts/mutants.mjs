// `npm run mutants`: the standing mutant list (test/mutants/list.json). Each entry is one small
// plausible change to a line that guards something (a rule, a bound, a check) and the test files
// that must notice it. The runner copies the repository to a scratch folder outside it, applies
// one mutant at a time, builds what its tests need (the server in dist/ for end-to-end tests;
// unit tests import src/ through tsx), runs those tests, and says which mutants were killed (a
// test failed) and which survived (every test passed: nothing guards that line). Exit 1 when one
// survives, the list no longer matches the code, or the covering tests fail without any mutant.
//
//   npm run mutants                    every mutant in the list
//   npm run mutants -- ID…             only these
//   npm run mutants -- --unit          only those whose tests are all unit tests (no build; CI)
//   npm run mutants -- --check         only check the list against the code (a second)
//   npm run mutants -- --list=FILE     another list (same format)
//
// Not part of `npm test`: it runs the covering tests once per mutant (minutes).
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const checkOnly = args.includes("--check");
const LIST = resolve(args.find((a) => a.startsWith("--list="))?.slice("--list=".length) ?? join(root, "test", "mutants", "list.json"));
const wanted = args.filter((a) => !a.startsWith("--"));

const mutants = loadList();
const unitOnly = args.includes("--unit");
const selected = (wanted.length ? mutants.filter((m) => wanted.includes(m.id)) : mutants).filter((m) => !unitOnly || !m.tests.some(isEndToEnd));
const unknown = wanted.filter((id) => !mutants.some((m) => m.id === id));
if (unknown.length) fail(`unknown mutant id(s): ${unknown.join(", ")}; the list has: ${mutants.map((m) => m.id).join(", ")}`);
console.log(`${LIST}: ${mutants.length} mutants, each search text found exactly once`);
if (checkOnly) process.exit(0);

const started = Date.now();
const loadAtStart = loadavg()[0];
const scratch = mkdtempSync(join(tmpdir(), "termhive-mutants-"));
// The sandbox tests make their homes outside /tmp (a sandbox's /tmp is its own): in a folder of
// this run's (test/temp-folder.ts reads TERMHIVE_TEST_OUTSIDE_TMP), removed with the copy.
const outside = existsSync("/var/tmp") ? mkdtempSync("/var/tmp/termhive-mutants-") : scratch;
let code = 1;
try {
  code = run(scratch);
} finally {
  for (const dir of new Set([scratch, outside])) {
    endTmuxServersIn(dir);
    rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  }
}
process.exit(code);

function run(dir) {
  copyRepository(dir);
  const needsServer = (m) => m.tests.some(isEndToEnd);
  if (selected.some(needsServer)) {
    step("building the server in the scratch copy (once in full; then src/ and the bundle per mutant)");
    const built = build(dir, true);
    if (!built.ok) return report(`the unmutated copy does not build:\n${built.output}`);
  }
  const groups = baselineGroups(selected);
  step(`baseline: the ${new Set(selected.flatMap((m) => m.tests)).size} covering test file(s) without any mutant, in ${groups.length} run(s)`);
  for (const group of groups) {
    let baseline = runTests(dir, group.files, group.patterns);
    if (baseline.passed) continue;
    // A failure that looks like load (end-to-end files on a busy machine) is run once more.
    step(`baseline: ${group.files.join(" ")} failed (${baseline.failed}); once more`);
    baseline = runTests(dir, group.files, group.patterns);
    if (!baseline.passed) return report(`the covering tests fail without any mutant; fix them first:\n${tail(baseline.output)}`);
    console.log(`  passed the second time: flaky here, so a kill by ${group.files.join(" ")} may be that flake (its failing tests are named)`);
  }

  const results = [];
  for (const m of selected) {
    const t0 = Date.now();
    const file = join(dir, m.file);
    const original = readFileSync(file, "utf8");
    writeFileSync(file, original.replace(m.search, () => m.replace));
    let result;
    try {
      const syntax = syntaxError(file);
      if (syntax) result = { verdict: "broken", detail: `the mutated file does not parse: ${syntax}` };
      else if (needsServer(m)) result = buildResult(dir); // undefined: built
      if (!result) {
        const tests = runTests(dir, m.tests, m.only === undefined ? [] : [m.only]);
        result = tests.passed ? { verdict: "SURVIVED", detail: tail(tests.output, 15) } : { verdict: "killed", detail: tests.failed };
      }
    } finally {
      writeFileSync(file, original);
    }
    results.push({ m, ...result, seconds: (Date.now() - t0) / 1000 });
    console.log(`${result.verdict.padEnd(8)} ${m.id} (${m.file}; ${m.tests.join(", ")}) ${((Date.now() - t0) / 1000).toFixed(1)} s${result.verdict === "killed" ? `: ${result.detail}` : ""}`);
    if (result.verdict !== "killed") console.log(indent(`${m.breaks}\n${result.detail}`));
  }
  // The copy's dist/ now holds the last mutant's build; nothing else uses it.
  const bad = results.filter((r) => r.verdict !== "killed");
  // The machine's load beside the time: the same list takes twice as long on a busy machine.
  const load = `load ${loadAtStart.toFixed(1)} → ${loadavg()[0].toFixed(1)}`;
  console.log(`\n${results.length - bad.length} of ${results.length} mutants killed in ${((Date.now() - started) / 1000).toFixed(0)} s (${load})`);
  for (const r of bad) console.log(`  ${r.verdict}: ${r.m.id}: ${r.m.breaks} (${r.m.file}; tests: ${r.m.tests.join(", ")})`);
  return bad.length ? 1 : 0;
}

/** Reads and checks the list: every field there, each search text exactly once in its file. */
function loadList() {
  let list;
  try {
    list = JSON.parse(readFileSync(LIST, "utf8")).mutants;
  } catch (error) {
    fail(`cannot read ${LIST}: ${error.message}`);
  }
  if (!Array.isArray(list)) fail(`${LIST}: expected {"mutants": [...]}`);
  const problems = [];
  const ids = new Set();
  list.forEach((m, i) => {
    const where = `mutants[${i}]${typeof m?.id === "string" ? ` (${m.id})` : ""}`;
    const before = problems.length;
    for (const key of ["id", "file", "search", "breaks"]) if (typeof m?.[key] !== "string" || m[key] === "") problems.push(`${where}: "${key}" must be a non-empty string`);
    if (typeof m?.replace !== "string") problems.push(`${where}: "replace" must be a string ("" deletes the search text)`);
    if (!Array.isArray(m?.tests) || m.tests.length === 0 || m.tests.some((t) => typeof t !== "string")) problems.push(`${where}: "tests" must list test files`);
    if (problems.length > before) return;
    if (ids.has(m.id)) problems.push(`${where}: the id is used twice`);
    ids.add(m.id);
    if (m.search === m.replace) problems.push(`${where}: "replace" equals "search": that changes nothing`);
    if (m.only !== undefined && !validPattern(m.only)) problems.push(`${where}: "only" must be a regular expression for test names`);
    for (const t of m.tests) if (!existsSync(join(root, t))) problems.push(`${where}: no test file ${t}`);
    const path = resolve(root, m.file);
    if (!path.startsWith(`${root}/`)) return void problems.push(`${where}: "file" must be a path inside the repository, as ${m.file} is not`);
    if (!existsSync(path)) return void problems.push(`${where}: no file ${m.file} (moved? update the entry)`);
    const found = count(readFileSync(path, "utf8"), m.search);
    if (found !== 1) problems.push(`${where}: the search text is found ${found} times in ${m.file}, not once (the code moved or changed: update the entry)\n    search: ${JSON.stringify(m.search)}`);
  });
  if (problems.length) fail(`${LIST} does not match the code:\n  ${problems.join("\n  ")}`);
  return list;
}

function validPattern(source) {
  try {
    return typeof source === "string" && source !== "" && new RegExp(source) !== null;
  } catch {
    return false;
  }
}

/**
 * The baseline runs: every unit file in one run (whole: they are quick), each end-to-end file in
 * a run of its own, only the tests the mutants ask for (`only`) unless one of them takes it whole.
 */
function baselineGroups(list) {
  const unit = [...new Set(list.flatMap((m) => m.tests.filter((t) => !isEndToEnd(t))))];
  const groups = unit.length ? [{ files: unit, patterns: [] }] : [];
  for (const file of new Set(list.flatMap((m) => m.tests.filter(isEndToEnd)))) {
    const covering = list.filter((m) => m.tests.includes(file));
    const patterns = covering.some((m) => m.only === undefined) ? [] : [...new Set(covering.map((m) => m.only))];
    groups.push({ files: [file], patterns });
  }
  return groups;
}

function count(text, search) {
  let n = 0;
  for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + 1)) n++;
  return n;
}

/** The repository's files (tracked, and new ones not ignored, as they are now) and node_modules as a link. */
function copyRepository(dir) {
  step(`copying the repository to ${dir}`);
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
  // node_modules is linked below (a link to it is not matched by .gitignore's "node_modules/").
  for (const path of new Set(listed.split("\0").filter((p) => p && p !== "node_modules" && !p.startsWith("node_modules/")))) {
    const from = join(root, path);
    if (!existsSync(from)) continue; // deleted in the work tree
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    cpSync(from, join(dir, path), { verbatimSymlinks: true });
  }
  symlinkSync(realpathSync(join(root, "node_modules")), join(dir, "node_modules"));
  // Only src/ is rebuilt per mutant (tests run from their sources); incremental, so a rebuild
  // re-checks what the change touches.
  writeFileSync(
    join(dir, "tsconfig.mutants.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { incremental: true, tsBuildInfoFile: "dist/.mutants.tsbuildinfo" }, include: ["src"] }),
  );
}

/** tsc of src/, then the bundle the tests start (full: also the dashboard page and the token table). */
function build(dir, full = false) {
  const steps = [["node_modules/typescript/bin/tsc", "-p", "tsconfig.mutants.json"]];
  if (full) steps.push(["node_modules/typescript/bin/tsc", "-p", "web/tsconfig.json"], ["scripts/gen-token-ranks.mjs"]);
  steps.push(["scripts/bundle.mjs"]);
  for (const s of steps) {
    const r = spawnSync(process.execPath, s, { cwd: dir, encoding: "utf8" });
    if (r.status !== 0) return { ok: false, output: `${s.join(" ")}: exit ${r.status ?? r.signal}\n${tail(r.stdout + r.stderr)}` };
  }
  return { ok: true };
}

/** undefined when the mutated copy built; else the verdict that it is broken. */
function buildResult(dir) {
  const built = build(dir);
  return built.ok ? undefined : { verdict: "broken", detail: `the mutated copy does not build (a mutant must compile):\n${built.output}` };
}

/** esbuild's parse of the mutated file (what tsx does too): a mutant that does not parse kills nothing honestly. */
function syntaxError(file) {
  if (!file.endsWith(".ts")) return undefined;
  try {
    transformSync(readFileSync(file, "utf8"), { loader: "ts" });
    return undefined;
  } catch (error) {
    return String(error.message).split("\n").slice(0, 3).join(" ");
  }
}

/**
 * Node's test runner on these files in the copy, one at a time as `npm test` runs them, with a
 * TMPDIR inside the copy: what the tests leave there goes with the copy. (Not through
 * scripts/run-tests.mjs: it takes no test-name pattern, and its verdict counts a leftover
 * folder as a failure, which here would pass for a kill.)
 */
function runTests(dir, files, patterns = []) {
  const tmp = join(dir, ".tmp");
  mkdirSync(tmp, { recursive: true });
  const only = patterns.map((p) => `--test-name-pattern=${p}`);
  const r = spawnSync(process.execPath, ["--import", "tsx", "--test", "--test-concurrency=1", "--test-timeout=90000", "--test-reporter=spec", ...only, ...files], {
    cwd: dir,
    encoding: "utf8",
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, TMPDIR: tmp, TERMHIVE_TEST_OUTSIDE_TMP: outside },
  });
  endTmuxServersIn(tmp);
  rmSync(tmp, { recursive: true, force: true, maxRetries: 5, retryDelay: 100 });
  const output = `${r.stdout}${r.stderr}`;
  const failed = /^ℹ fail (\d+)/m.exec(output)?.[1];
  // The spec reporter lists the failing tests again at the end: their names say what caught it.
  const names = [...new Set((output.split("✖ failing tests:")[1] ?? "").split("\n").filter((l) => l.startsWith("✖ ")).map((l) => l.slice(2).replace(/ \([\d.]+ms\)$/, "")))];
  const which = names.length ? `: ${names.slice(0, 2).map((n) => JSON.stringify(n)).join(", ")}${names.length > 2 ? ", …" : ""}` : "";
  return { passed: r.status === 0, output, failed: failed ? `${failed} test(s) failed${which}` : `exit ${r.status ?? r.signal}` };
}

/** tmux servers whose socket is in `dir` (a test that failed midway may leave one): ended by pid. */
function endTmuxServersIn(dir) {
  const ps = spawnSync("ps", ["-eo", "pid=,args="], { encoding: "utf8" }).stdout ?? "";
  for (const line of ps.split("\n")) {
    const m = /^\s*(\d+)\s+(\S+)(.*)$/.exec(line);
    if (!m || !/(^|\/)tmux$/.test(m[2]) || !m[3].includes(`${dir}/`)) continue;
    try {
      process.kill(Number(m[1]), "SIGTERM");
    } catch {
      // gone already
    }
  }
}

function isEndToEnd(file) {
  return file.startsWith("test/e2e/");
}

function step(text) {
  console.log(`· ${text} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
}

function report(text) {
  console.error(`mutants: ${text}`);
  return 1;
}

function fail(text) {
  console.error(`mutants: ${text}`);
  process.exit(1);
}

function tail(text, lines = 40) {
  return text.split("\n").slice(-lines).join("\n");
}

function indent(text) {
  return text.split("\n").map((l) => `    ${l}`).join("\n");
}
