// In-process costs of what every read pays (rendering, masking, reducers) on 1 MB of output:
// the speed figures that unit tests do not assert (they check only that the work grows
// linearly, see test/unit/scaling.ts). Medians of RUNS after a warm-up.
import { cleanLines, renderOutput } from "../src/output/index.js";
import { pytest } from "../src/output/reducers/pytest.js";
import { redactCredentials, redactSecrets } from "../src/redact.js";
import { RUNS, loadavg, median, round, type Emit } from "./common.js";

const MB = 1024 * 1024;

function medianMs(work: () => void): number {
  work();
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    work();
    times.push(performance.now() - start);
  }
  return round(median(times));
}

export function benchPure(emit: Emit): void {
  const block = Array.from({ length: 200 }, (_, i) => `\x1b[32m[${i}]\x1b[0m src/module/file${i}.ts compiled in ${i}ms\r\n`).join("");
  const coloured = block.repeat(Math.ceil(MB / block.length)).slice(0, MB);
  emit({ bench: "render 1 MB of coloured build output", unit: "ms", median: medianMs(() => renderOutput(coloured, { firstLine: 1, session: "s" })), runs: RUNS, target: "<= 50", loadavg: loadavg() });
  const line = "src/app.ts(12,5): error TS2322: Type 'string' is not assignable to type 'number'. password hint\n";
  const compiler = line.repeat(Math.ceil(MB / line.length)).slice(0, MB);
  emit({ bench: "mask credentials in 1 MB", unit: "ms", median: medianMs(() => redactCredentials(compiler)), runs: RUNS, target: "<= 50", loadavg: loadavg() });
  const plain = "x".repeat(MB / 2) + "s3cret" + "y".repeat(MB / 2);
  emit({ bench: "mask typed secrets in 1 MB", unit: "ms", median: medianMs(() => redactSecrets(plain, ["s3cret", "other"])), runs: RUNS, target: "<= 50", loadavg: loadavg() });
  const rules = cleanLines(`${"=".repeat(60)} FAILURES ${"=".repeat(60)}\n`.repeat(MB / 131));
  emit({ bench: "pytest reducer on 1 MB of rule lines", unit: "ms", median: medianMs(() => pytest.reduce(rules, { session: "t", firstLine: 1 })), runs: RUNS, target: "<= 50", loadavg: loadavg() });
}
