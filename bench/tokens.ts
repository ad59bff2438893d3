// Token bench (issue 3): real commands run on this machine, rendered the way a read
// returns them. One JSON line per corpus item, then a summary line with the medians.
// Run: npx tsx bench/tokens.ts
import { median } from "./common.js";
import { fileURLToPath } from "node:url";
import { cleanLines, renderOutput } from "../src/output/index.js";
import { trimRule } from "../src/output/reducers/rules.js";
import * as corpus from "../test/fixtures/output/generate.js";
import { pytestShapes } from "../test/fixtures/output/pytest-shapes.js";
import { listedTool } from "../src/mcp/tool-list.js";
import { VERBS } from "../src/verbs/index.js";
import { countTokens } from "../src/output/index.js";
import { startServer } from "./common.js";

interface Item {
  name: string;
  output: string;
  command: string;
  facts: string[];
  /** Lines that must be visible as whole lines (seq's first and last). */
  wholeLines?: string[];
  note?: string;
  /** The most tokens the reduced result may cost (issue 9: pytest ≤ 450). */
  targetTokens?: number;
  /** What must show of the last line when the reducer rewrites it (pytest's counts, ls's entry). */
  lastAs?: (last: string) => string;
}

function buildCorpus(): Item[] {
  const items: Item[] = [];
  if (corpus.pythonHasPytest()) {
    // Six kinds of failure (assert ==, exception, helper assert, fixture error, parametrize, long diff).
    const { output, command, facts } = corpus.pytestSuite(40);
    items.push({ name: "pytest 40 tests / 6 failures", output, command, facts, targetTokens: 450, lastAs: trimRule });
  }
  if (corpus.pythonHasPytest()) {
    // Suites the reducer was not written against, every shape (issue 24: ≤ 430 tokens).
    for (const shape of pytestShapes()) {
      items.push({ name: `${shape.name} (unseen suite)`, output: shape.output, command: shape.command, facts: [...shape.facts, ...shape.failures.map((f) => f.location)], targetTokens: 430, lastAs: trimRule });
    }
  }
  const log = corpus.gitLogRepo(30);
  items.push({ name: "git log --stat (30 commits)", output: log.output, command: log.command, facts: log.facts });
  // The same commits with their patches (git-diff reducer): over the budget the fold keeps the
  // newest and oldest commits whole, the ones between behind its markers.
  const patches = corpus.capturePty("git -c color.ui=always --no-pager log -p", log.dir);
  items.push({ name: "git log -p (30 commits)", output: patches, command: "git log -p", facts: [log.subjects[log.subjects.length - 1]!, log.subjects[0]!] });
  items.push({ name: "tsc, 5 errors", ...corpus.tscProject() });
  const npm = corpus.npmInstallOffline();
  if (npm) items.push({ name: "npm install (offline cache)", ...npm });
  else items.push({ name: "npm install (fixture)", output: corpus.fixture("npm-install.txt"), command: "npm install", facts: ["added 187 packages"], note: "npm cache lacked the packages; reconstructed fixture" });
  items.push({ name: "make/gcc with errors", ...corpus.makeProject() });
  if (corpus.hasTool("cargo")) items.push({ name: "cargo test, 2 failures", ...corpus.cargoTestCrate() });
  items.push({ name: "seq 1 200000", ...corpus.seqOutput(200_000), wholeLines: ["1", "200000"] });
  items.push({ name: "ls -laR (1500 files)", ...corpus.lsTree(60, 25), lastAs: (last) => last.split(" ").pop()! });
  return items;
}

function lastLine(output: string): string {
  const lines = cleanLines(output);
  return lines[lines.length - 1]?.text ?? "";
}


function timeRender(output: string, command: string | undefined, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    renderOutput(output, { command, firstLine: 1, session: "bench" });
    times.push(performance.now() - start);
  }
  return median(times);
}

export async function benchTokens(): Promise<Record<string, unknown>[]> {
  const records: Record<string, unknown>[] = [];
  const items = buildCorpus();
  for (const item of items) {
    const rendered = renderOutput(item.output, { command: item.command, firstLine: 1, session: "bench" });
    const last = lastLine(item.output);
    const facts = [...item.facts, item.lastAs ? item.lastAs(last) : last];
    const visible = rendered.text.split("\n");
    const missed = facts.filter((fact) => !rendered.text.includes(fact));
    for (const whole of item.wholeLines ?? []) if (!visible.includes(whole)) missed.push(`line "${whole}"`);
    records.push({
      bench: "tokens",
      item: item.name,
      command: item.command,
      bytes: Buffer.byteLength(item.output),
      raw_tokens: rendered.raw_tokens,
      raw_tokens_estimated: rendered.raw_tokens_estimated ?? false,
      tokens: rendered.tokens,
      ratio: Number((rendered.tokens / rendered.raw_tokens).toFixed(4)),
      reducer: rendered.reducer ?? null,
      folded_lines: rendered.folded_lines,
      facts_kept: missed.length === 0,
      facts_total: facts.length,
      facts_missed: missed,
      render_ms: Number(timeRender(item.output, item.command, 5).toFixed(2)),
      ...(item.targetTokens ? { target_tokens: item.targetTokens, within_target: rendered.tokens <= item.targetTokens } : {}),
      ...(item.note ? { note: item.note } : {}),
    });
  }

  // ~1 MB of mixed real output (the corpus minus seq, repeated), reduced with and without a known command.
  const mixed = items.filter((item) => !item.name.startsWith("seq")).map((item) => item.output).join("\n");
  const oneMb = mixed.repeat(Math.ceil((1024 * 1024) / mixed.length)).slice(0, 1024 * 1024);
  const seq = items.find((item) => item.name.startsWith("seq"))!;
  const runs = 15;
  renderOutput(oneMb, { firstLine: 1, session: "bench" }); // warm-up (tokenizer tables, JIT)
  records.push({
    bench: "tokens",
    item: "render 1 MB mixed output",
    bytes: Buffer.byteLength(oneMb),
    runs,
    median_ms: Number(timeRender(oneMb, undefined, runs).toFixed(2)),
    median_ms_with_command: Number(timeRender(oneMb, "make -k", runs).toFixed(2)),
    median_ms_seq_1_200000: Number(timeRender(seq.output, seq.command, runs).toFixed(2)),
    target_ms: 50,
  });

  records.push(toolListRecord());
  records.push(await seqThroughRun());

  const itemRecords = records.filter((record) => "ratio" in record);
  const ratios = itemRecords.map((record) => record.ratio as number);
  const seqRecord = itemRecords.find((record) => String(record.item).startsWith("seq"))!;
  records.push({
    bench: "tokens",
    item: "summary",
    median_ratio: Number(median(ratios).toFixed(4)),
    target_median_ratio: 0.35,
    facts_kept_all: itemRecords.every((record) => record.facts_kept === true),
    seq_tokens: seqRecord.tokens,
    target_seq_tokens: 200,
  });
  return records;
}

/** termhive's tool list as Claude Code sends it with tool search off (name prefixed, description, input_schema). */
function toolListRecord(): Record<string, unknown> {
  const tokensOf = (verbs: typeof VERBS) =>
    verbs.reduce((sum, verb) => {
      const tool = listedTool(verb);
      return sum + countTokens(JSON.stringify({ name: `mcp__termhive__${tool.name}`, description: tool.description, input_schema: tool.inputSchema }));
    }, 0);
  const terminal = VERBS.filter((verb) => verb.family === "terminal");
  return {
    bench: "tokens", item: "tool list (o200k, as Claude Code sends it)", tools: VERBS.length,
    tokens_all: tokensOf(VERBS), target_all: 4000, tokens_terminal: tokensOf(terminal), target_terminal: 1800,
  };
}

/** seq 1 200000 through terminal_run on the built server: what a model reads of it. */
async function seqThroughRun(): Promise<Record<string, unknown>> {
  const server = await startServer();
  try {
    await server.call("terminal_open", { name: "seq", command: "bash" });
    const r = await server.call("terminal_run", { session: "seq", command: "seq 1 200000", timeout_s: 120 });
    const lines = String(r.output).split("\n");
    return {
      bench: "tokens", item: "seq 1 200000 via terminal_run", tokens: r.tokens, target_tokens: 200, within_target: r.tokens <= 200,
      first_and_last: lines[0] === "1" && lines.includes("200000"), markers: lines.filter((line) => line.startsWith("… ")).length,
    };
  } finally {
    await server.stop();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const record of await benchTokens()) console.log(JSON.stringify(record));
}
