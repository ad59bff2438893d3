// Inside src/hive and src/terminal, files are grouped into rooms (one folder per concept), and
// the rooms are layered as the folders of src/ are (cycles.test.ts): a room may import from the
// rooms below it, never from one above, and rooms of one rank never import each other both
// ways. Type-only imports count: a type names the concept it belongs to. Each room stays small
// enough to read (at most 15 source files) and says in its README what each file is.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../../src");

/** Each wing's rooms, top first; "." is the wing's own folder. A room may import rooms below it. */
const ROOMS: Record<string, readonly (readonly string[])[]> = {
  hive: [["ops", "launch"], ["live", "displays", "relay", "messages"], ["notify"], ["."], ["rules", "programs"], ["store"]],
  terminal: [["ops"], ["typing"], ["waits"], ["views", "live"], ["session"], ["model"]],
};
const MAX_FILES = 15;
/** Folders of src/ outside the two wings that hold more than MAX_FILES files, and why. */
const WIDE: Record<string, string> = {
  verbs: "the verb table: one file per tool, by design",
  "output/reducers": "one reducer per program's output, looked up by name",
  output: "the output pipeline's steps, not yet grouped",
  util: "leaves shared by every layer, not yet grouped",
  cli: "one file per CLI command group, not yet grouped",
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

/** "hive", "ops" for src/hive/ops/spawn.ts; "terminal", "." for a file in src/terminal itself. */
function roomOf(path: string): { wing: string; room: string } | undefined {
  const parts = relative(SRC, path).split(sep);
  if (!(parts[0]! in ROOMS)) return undefined;
  return { wing: parts[0]!, room: parts.length > 2 ? parts[1]! : "." };
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)["'](\.{1,2}\/[^"']+)["']/gm;

interface RoomEdge { wing: string; from: string; to: string; where: string }

function roomEdges(): RoomEdge[] {
  const edges: RoomEdge[] = [];
  for (const file of sourceFiles(SRC)) {
    const from = roomOf(file);
    if (!from) continue;
    for (const match of readFileSync(file, "utf8").matchAll(IMPORT)) {
      const to = roomOf(resolve(dirname(file), match[1]!));
      if (!to || to.wing !== from.wing || to.room === from.room) continue;
      edges.push({ wing: from.wing, from: from.room, to: to.room, where: `${relative(SRC, file)} → ${match[1]}` });
    }
  }
  return edges;
}

const rankIn = (wing: string, room: string) => ROOMS[wing]!.findIndex((rank) => rank.includes(room));

/** The edges against the order: upward, or closing a circle between rooms of one rank. */
function wrongEdges(edges: RoomEdge[]): RoomEdge[] {
  const sideways = edges.filter((e) => rankIn(e.wing, e.from) === rankIn(e.wing, e.to));
  const reaches = (wing: string, from: string, to: string, seen = new Set<string>()): boolean =>
    from === to || sideways.some((e) => e.wing === wing && e.from === from && !seen.has(e.to) && (seen.add(e.to), reaches(wing, e.to, to, seen)));
  return edges.filter((e) => {
    const from = rankIn(e.wing, e.from), to = rankIn(e.wing, e.to);
    return from > to || (from === to && reaches(e.wing, e.to, e.from));
  });
}

test("every room of src/hive and src/terminal has a declared rank", () => {
  const rooms = new Set(sourceFiles(SRC).map(roomOf).filter((r) => r !== undefined).map((r) => `${r.wing}/${r.room}`));
  const undeclared = [...rooms].filter((r) => rankIn(r.split("/")[0]!, r.split("/")[1]!) === -1);
  assert.deepEqual(undeclared, [], `add these rooms to ROOMS: ${undeclared.join(", ")}`);
});

test("the room order is read: each rank imports the one below it", () => {
  // If the imports stopped being read, the order test below would pass on nothing.
  const edges = roomEdges();
  const rooms = new Set(sourceFiles(SRC).map(roomOf).filter((r) => r !== undefined).map((r) => `${r.wing}/${r.room}`));
  for (const [wing, declared] of Object.entries(ROOMS)) {
    const ranks = declared.filter((rank) => rank.some((room) => rooms.has(`${wing}/${room}`)));
    assert.ok(ranks.length >= 4, `${wing}: only ${ranks.length} ranks have files`);
    for (let i = 0; i + 1 < ranks.length; i++) {
      const seen = edges.some((e) => e.wing === wing && ranks[i]!.includes(e.from) && ranks[i + 1]!.includes(e.to));
      assert.ok(seen, `no import from ${wing}/{${ranks[i]!.join(",")}} to ${wing}/{${ranks[i + 1]!.join(",")}} was seen`);
    }
  }
});

test("no room imports a room above it, nor a room of its rank that imports it", () => {
  const wrong = wrongEdges(roomEdges());
  const report = wrong.map((e) => `  ${e.wing}/${e.from} → ${e.wing}/${e.to}  (${e.where})`);
  assert.equal(wrong.length, 0, `imports against the room order (${Object.entries(ROOMS).map(([w, r]) => `${w}: ${r.map((x) => x.join(", ")).join(" > ")}`).join("; ")}):\n${report.join("\n")}`);
});

test("the room check reports a wrong import it is given", () => {
  const edge = (wing: string, from: string, to: string): RoomEdge => ({ wing, from, to, where: `${from}/x.ts → ../${to}/y.js` });
  assert.deepEqual(wrongEdges([edge("terminal", "model", "session")]).length, 1, "model → session is upward");
  assert.deepEqual(wrongEdges([edge("hive", "store", "rules")]).length, 1, "store → rules is upward");
  assert.deepEqual(wrongEdges([edge("hive", "live", "ops")]).length, 1, "live → ops is upward");
  assert.deepEqual(wrongEdges([edge("hive", "rules", "programs"), edge("hive", "programs", "rules")]).length, 2, "rules ⇄ programs is a circle");
  assert.deepEqual(wrongEdges([edge("terminal", "waits", "typing")]).length, 1, "waits → typing is upward");
  assert.deepEqual(wrongEdges([edge("hive", "live", "displays"), edge("hive", "displays", "relay"), edge("hive", "relay", "live")]).length, 3, "a circle of three in one rank");
  assert.deepEqual(wrongEdges([edge("hive", "ops", "store"), edge("terminal", "ops", "model"), edge("hive", "rules", "programs")]), []);
});

const filesIn = (dir: string) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isFile() && e.name.endsWith(".ts")).map((e) => e.name);
const folders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).flatMap((e) => [join(dir, e.name), ...folders(join(dir, e.name))]);

test(`no folder of src/ holds more than ${MAX_FILES} source files (outside the two wings, only those named in WIDE)`, () => {
  const over = [SRC, ...folders(SRC)]
    .map((dir) => ({ folder: relative(SRC, dir).split(sep).join("/"), files: filesIn(dir).length }))
    .filter((f) => f.folder !== "" && f.files > MAX_FILES && !(f.folder in WIDE));
  assert.deepEqual(over, []);
});

test("each room has a README whose table names each of its files", () => {
  const unnamed: string[] = [];
  for (const wing of Object.keys(ROOMS)) {
    for (const dir of [join(SRC, wing), ...folders(join(SRC, wing))]) {
      const readme = join(dir, "README.md");
      const text = existsSync(readme) ? readFileSync(readme, "utf8") : "";
      const named = new Set(text.split("\n").filter((l) => /^\|\s*`/.test(l)).flatMap((l) => [...l.split("|")[1]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!)));
      for (const file of filesIn(dir)) if (!named.has(file)) unnamed.push(relative(SRC, join(dir, file)));
    }
  }
  assert.deepEqual(unnamed, [], "add a row `| \\`file.ts\\` | one concept |` to the room's README.md");
});
