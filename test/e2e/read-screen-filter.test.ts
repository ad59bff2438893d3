// terminal_read's filter applies to a screen read too: the rows that match (with context),
// each run of other rows one line saying how many; no row matching says so.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("screen read with a filter", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
  });
  after(async () => h?.destroy());

  test("mode screen keeps only the matching rows", async () => {
    await h.ok("terminal_open", { name: "s", command: "bash" });
    await h.ok("terminal_run", { session: "s", command: "printf 'one\\nBG-DONE-%s\\ntwo\\nthree\\nREADY-%s\\nfour\\n' 9 7", timeout_s: 20 });
    const r = await h.ok("terminal_read", { session: "s", mode: "screen", filter: "^(BG-DONE|READY)-\\d" });
    const rows = r.output.split("\n");
    assert.deepEqual(rows.filter((row: string) => !row.startsWith("… ")), ["BG-DONE-9", "READY-7"], r.output);
    assert.ok(rows.some((row: string) => /^… 2 screen rows not matching the filter$/.test(row)), r.output);
    const c = await h.ok("terminal_read", { session: "s", mode: "screen", filter: "^READY-\\d", context: 1 });
    assert.deepEqual(c.output.split("\n").filter((row: string) => !row.startsWith("… ")), ["three", "READY-7", "four"], c.output);
    const none = await h.ok("terminal_read", { session: "s", mode: "screen", filter: "never-[x]" });
    assert.match(none.output, /^no screen row matches/, none.output);
  });

  test("a screen read drops the spaces a program wrote at the end of its rows (top clears each row with them)", async () => {
    await h.ok("terminal_open", { name: "pad", command: "bash" });
    await h.ok("terminal_run", { session: "pad", command: "printf 'PADDED-%s      \\n\\033[7mREVERSE-%s   \\033[0m\\n' 1 2", timeout_s: 20 });
    const r = await h.ok("terminal_read", { session: "pad", mode: "screen" });
    const rows: string[] = r.output.split("\n");
    assert.ok(rows.includes("PADDED-1") && rows.includes("REVERSE-2"), r.output);
    assert.deepEqual(rows.filter((row) => / $/.test(row)), [], r.output);
  });
});
