// Runs every test/**/*.test.ts with node's own runner (TypeScript through tsx).
// Unit tests import src/ directly; e2e tests spawn the built server in dist/.
import { readdirSync, statSync } from "node:fs";
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
// One file at a time by default: the end-to-end files each start servers, tmux and shells,
// and on a 2-core machine running them side by side made timing-sensitive waits flaky.
const concurrency = process.env.TERMHIVE_TEST_CONCURRENCY ?? "1";
const result = spawnSync(
  process.execPath,
  ["--import", "tsx", "--test", `--test-concurrency=${concurrency}`, "--test-timeout=90000", "--test-reporter=spec", ...files],
  { stdio: "inherit" },
);
process.exit(result.status ?? 1);
