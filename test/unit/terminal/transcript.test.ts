import { test } from "node:test";
import assert from "node:assert/strict";
import { Transcript } from "../../../src/terminal/model/transcript.js";

test("offsets, lines and slices across many appends", () => {
  const t = new Transcript(10_000_000);
  let all = "";
  for (let i = 1; i <= 50_000; i++) {
    const piece = `line ${i}\n`;
    t.append(piece);
    all += piece;
  }
  assert.equal(t.end, all.length);
  assert.equal(t.slice(0).text, all);
  assert.equal(t.slice(100, 200_000).text, all.slice(100, 200_000));
  assert.equal(t.lineCount, 50_001); // the empty line being written after the last newline
  assert.equal(t.lines(49_999, 50_000).text, "line 49999\nline 50000");
  assert.equal(t.lineAt(all.indexOf("line 777\n")), 777);
});

test("past the cap the oldest whole lines are dropped and reads say so", () => {
  const t = new Transcript(200_000);
  for (let i = 1; i <= 100_000; i++) t.append(`row ${i}\n`);
  assert.ok(t.end - t.start <= 200_000 + 64 * 1024, "held text stays near the cap");
  const first = t.firstHeldLine;
  assert.ok(first > 1);
  const held = t.lines(first, first);
  assert.equal(held.text, `row ${first}`);
  const asked = t.lines(1, first);
  assert.equal(asked.droppedBefore, first - 1);
  assert.equal(t.lines(100_000, 100_000).text, "row 100000");
  assert.ok(t.slice(0, 10).droppedBefore > 0);
});

test("a flood far beyond the cap costs time in proportion to its size", () => {
  const t = new Transcript(1_000_000);
  const chunk = "x".repeat(99) + "\n";
  const started = performance.now();
  for (let i = 0; i < 160_000; i++) t.append(chunk); // 16 MB through a 1 MB cap
  const ms = performance.now() - started;
  assert.equal(t.lines(t.lineCount - 1, t.lineCount - 1).text, "x".repeat(99));
  // Linear work is well under a second here; the old join-everything-per-append took minutes.
  assert.ok(ms < 5000, `took ${ms} ms`);
});

test("a pinned head outlives the cap; one pin at a time", () => {
  const t = new Transcript(100_000);
  t.append("prompt$ cmd\n");
  const start = t.end;
  t.pin(start);
  t.append("FIRST\n");
  for (let i = 0; i < 10_000; i++) t.append("y\n".repeat(20));
  assert.ok(t.start > start, "the head was dropped from the ring");
  const head = t.headOf(0)!;
  assert.equal(head.start, start);
  assert.equal(head.firstLine, 2);
  assert.ok(head.text.startsWith("FIRST\ny\n"));
  assert.equal(t.headOf(start + 6)!.text.slice(0, 2), "y\n");
  assert.equal(t.headOf(start + 6)!.firstLine, 3);
  assert.equal(t.headOf(t.start), undefined, "held text is not the head's");
  t.pin(t.end);
  assert.equal(t.headOf(0), undefined, "a new pin replaces the old head");
});
