// The folders of src/ form layers: a folder may import from folders below it, never from one
// that (directly or through others) imports it back. This test reads the relative imports of
// every file under src/ and fails on any folder-level cycle, naming the files that close it;
// on any import from a folder to one above it in the declared order (LAYERS); and on any
// file-level import circle (type-only imports excepted: the compiler erases them).
// Files directly in src/ (config.ts, audit.ts, index.ts…) each count as their own node: they
// are entry points or leaves, not one folder. src/hive/live/ is its own node, above hive/, and
// src/hive/ops/ (the verbs' operations over the crew) its own, above hive/live/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../../src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith(".ts") ? [path] : [];
  });
}

/**
 * The hive's rooms at work with live panes, as two nodes (rooms.test.ts orders the rooms inside
 * hive/ and terminal/): the verbs' operations and agents' starts above the crew and its parts.
 */
const HIVE_AT_WORK = new Map([
  ["ops", "hive/ops/"], ["launch", "hive/ops/"],
  ["live", "hive/live/"], ["displays", "hive/live/"], ["relay", "hive/live/"], ["messages", "hive/live/"],
]);

/** The top-level folder of src/ a file belongs to, or the file itself when it sits in src/. */
function nodeOf(path: string): string {
  const parts = relative(SRC, path).split(sep);
  if (parts[0] === "hive" && HIVE_AT_WORK.has(parts[1]!)) return HIVE_AT_WORK.get(parts[1]!)!;
  return parts.length > 1 ? `${parts[0]}/` : parts[0]!.replace(/\.js$/, ".ts");
}

/** `import … from "./x.js"`, `export … from "../y.js"`, `import("../z.js")`: relative specifiers only. */
const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

interface Edge { from: string; to: string; where: string[] }

function folderGraph(): Map<string, Map<string, Edge>> {
  const graph = new Map<string, Map<string, Edge>>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    for (const match of text.matchAll(IMPORT)) {
      const target = resolve(dirname(file), match[1]!);
      if (!target.startsWith(SRC + sep)) continue;
      const from = nodeOf(file);
      const to = nodeOf(target);
      if (from === to) continue;
      const out = graph.get(from) ?? new Map<string, Edge>();
      graph.set(from, out);
      const edge = out.get(to) ?? { from, to, where: [] };
      out.set(to, edge);
      edge.where.push(`${relative(SRC, file)} → ${match[1]}`);
    }
  }
  return graph;
}

/** Every elementary cycle found by a depth-first walk from each node (the graph is small). */
function cycles(graph: Map<string, Map<string, Edge>>): Edge[][] {
  const found = new Map<string, Edge[]>();
  const walk = (start: string, node: string, path: Edge[], seen: Set<string>) => {
    for (const edge of graph.get(node)?.values() ?? []) {
      if (edge.to === start) {
        const loop = [...path, edge];
        const key = cycleKey(loop);
        if (!found.has(key)) found.set(key, loop);
      } else if (!seen.has(edge.to) && edge.to > start) {
        seen.add(edge.to);
        walk(start, edge.to, [...path, edge], seen);
        seen.delete(edge.to);
      }
    }
  };
  for (const node of graph.keys()) walk(node, node, [], new Set([node]));
  return [...found.values()];
}

test("the import graph of src/ is read: the layers this test relies on are seen", () => {
  const graph = folderGraph();
  // If the regex stopped matching, the cycle test below would pass on an empty graph.
  assert.ok(graph.get("terminal/")?.has("backends/"), "terminal/ imports backends/ (the Backend contract)");
  assert.ok(graph.get("service/")?.has("terminal/"), "service/ imports terminal/");
  assert.ok(graph.get("config.ts")?.has("util/"), "config.ts imports util/");
  assert.ok(graph.get("hive/live/")?.has("hive/"), "hive/live/ imports hive/");
});

test("the cycle finder reports a cycle it is given", () => {
  const edge = (from: string, to: string): Edge => ({ from, to, where: [`${from}x.ts → ../${to}`] });
  const graph = new Map([
    ["a/", new Map([["b/", edge("a/", "b/")]])],
    ["b/", new Map([["c/", edge("b/", "c/")]])],
    ["c/", new Map([["a/", edge("c/", "a/")]])],
    ["d/", new Map([["a/", edge("d/", "a/")]])],
  ]);
  const found = cycles(graph);
  assert.equal(found.length, 1);
  assert.deepEqual(found[0]!.map((e) => e.from), ["a/", "b/", "c/"]);
});

/**
 * Cycles known and owned by work in progress, each with why it is still here. Only these may
 * remain; one that is gone must leave this list too (the next test says so).
 */
/** Cycles known and scheduled to go (each with why it is there); none today. */
const PENDING: Record<string, string> = {};

const cycleKey = (loop: Edge[]) => loop.map((e) => e.from).sort().join(" ");

test("every pending cycle is still there (a fixed one leaves PENDING)", () => {
  const found = new Set(cycles(folderGraph()).map(cycleKey));
  for (const key of Object.keys(PENDING)) assert.ok(found.has(key), `cycle ${key} is gone: remove it from PENDING`);
});

test("no folder of src/ imports, directly or through others, a folder that imports it", () => {
  const found = cycles(folderGraph()).filter((loop) => !(cycleKey(loop) in PENDING));
  const report = found.map((loop) =>
    loop.map((e) => `  ${e.from} → ${e.to}  (${e.where.slice(0, 3).join("; ")}${e.where.length > 3 ? "; …" : ""})`).join("\n"));
  assert.equal(found.length, 0, `folder cycles in src/:\n${report.join("\n\n")}`);
});

/**
 * The layers, top first: a node may import nodes of its own rank or below, never above.
 * doors > verbs > service > hive/ops > hive/live > hive, terminal > backends, output, safety, shell > util.
 * Ranks of equal standing share a line; the folder cycle test above keeps those acyclic.
 */
const LAYERS: readonly (readonly string[])[] = [
  ["cli.ts", "index.ts", "cli/", "serve/", "mcp/", "grpc/", "dashboard/"],
  ["verbs/"],
  ["service/"],
  ["hive/ops/"],
  ["hive/live/"],
  ["hive/", "terminal/"],
  ["backends/", "iterm2/", "output/", "safety/", "shell/", "sandbox/"],
  ["util/", "auth/", "config.ts", "audit.ts", "version.ts", "redact.ts"],
];

const rankOf = (node: string): number => LAYERS.findIndex((layer) => layer.includes(node));

test("every node of src/ has a declared layer", () => {
  const graph = folderGraph();
  const nodes = new Set([...graph.keys(), ...[...graph.values()].flatMap((out) => [...out.keys()])]);
  const undeclared = [...nodes].filter((n) => rankOf(n) === -1);
  assert.deepEqual(undeclared, [], `add these to LAYERS: ${undeclared.join(", ")}`);
});

test("no node imports a node of a higher layer", () => {
  const upward = [...folderGraph().values()].flatMap((out) => [...out.values()]).filter((e) => rankOf(e.from) > rankOf(e.to));
  const report = upward.map((e) => `  ${e.from} → ${e.to}  (${e.where.slice(0, 3).join("; ")})`);
  assert.equal(upward.length, 0, `imports against the layer order:\n${report.join("\n")}`);
});

test("the layer check reports an upward import it is given", () => {
  assert.ok(rankOf("hive/live/") > rankOf("service/"), "service/ sits above hive/live/");
  assert.ok(rankOf("hive/live/") < rankOf("hive/") && rankOf("hive/") === rankOf("terminal/"));
  assert.ok(rankOf("terminal/") > rankOf("service/"), "terminal/ → service/ would be upward");
});

/** Runtime imports only: `import type …` and `export type …` are erased and load nothing. */
const RUNTIME_IMPORT = /(?:^\s*import\s+(?!type\s)(?:[^"';]*?\sfrom\s*)?|^\s*export\s+(?!type\s)[^"';]*?\sfrom\s*|\bimport\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/gm;

function fileGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, "utf8");
    const out = [...text.matchAll(RUNTIME_IMPORT)].map((m) => resolve(dirname(file), m[1]!).replace(/\.js$/, ".ts")).filter((t) => t.startsWith(SRC + sep));
    graph.set(file, out);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan). */
function fileCircles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>(), found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(relative(SRC, w));
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

test("the file circle finder reports a circle it is given", () => {
  const a = join(SRC, "a.ts"), b = join(SRC, "b.ts"), c = join(SRC, "c.ts");
  assert.deepEqual(fileCircles(new Map([[a, [b]], [b, [a]], [c, [a]]])), [["a.ts", "b.ts"]]);
  assert.ok(fileGraph().get(join(SRC, "service", "root.ts"))?.includes(join(SRC, "service", "service.ts")), "runtime imports are read");
});

test("no file of src/ imports, at run time, a file that imports it back", () => {
  const circles = fileCircles(fileGraph());
  assert.deepEqual(circles, [], `import circles in src/:\n${circles.map((c) => `  ${c.join(" ↔ ")}`).join("\n")}`);
});
