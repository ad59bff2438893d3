// terminal_read's filter finds every match in whatever the transcript holds, however long the
// read, and never shows a line that does not match; where the transcript dropped its oldest
// lines, the result says which lines were searched.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

const MARKER = /^… \d+ lines hidden/;

/** The output's lines that are not fold or filter markers. */
function shown(output: string): string[] {
  return output.split("\n").filter((line) => !MARKER.test(line) && !line.startsWith("no line matches"));
}

describe("read filter", () => {
  let h: Harness;
  let small: Harness;
  before(async () => {
    h = await Harness.start();
    // A transcript that keeps about 1 MB: the oldest output of a long run is dropped.
    small = await Harness.start({ TERMHIVE_TRANSCRIPT_MAX_CHARS: "1000000" });
  });
  after(async () => {
    await h.destroy();
    await small.destroy();
  });

  test("after two long outputs, mode all with a filter returns every match and only matches", async () => {
    await h.ok("terminal_open", { name: "f", command: "bash" });
    assert.equal((await h.ok("terminal_run", { session: "f", command: "seq 1 100000", timeout_s: 60 })).reason, "osc133");
    assert.equal((await h.ok("terminal_run", { session: "f", command: "seq 1 200000", timeout_s: 60 })).reason, "osc133");
    const r = await h.ok("terminal_read", { session: "f", mode: "all", filter: "^1234[0-9]$" });
    const lines = shown(r.output);
    assert.deepEqual(lines, [...Array.from({ length: 10 }, (_, i) => String(12340 + i)), ...Array.from({ length: 10 }, (_, i) => String(12340 + i))], r.output);
    assert.equal(r.note, undefined);
    // With context, the lines around each match come too, still nothing else.
    const c = await h.ok("terminal_read", { session: "f", mode: "all", filter: "^123456$", context: 1 });
    assert.deepEqual(shown(c.output), ["123455", "123456", "123457"], c.output);
    // Raw too: matches in the middle of 1.9 MB of output, of which an unfiltered read renders only the head and the last 1 MB.
    const raw = await h.ok("terminal_read", { session: "f", mode: "all", raw: true, filter: "^3000[0-9]$" });
    const thirty = Array.from({ length: 10 }, (_, i) => String(30000 + i));
    assert.deepEqual(shown(raw.output).map((line) => line.replace(/\r$/, "")), [...thirty, ...thirty], raw.output);
  });

  test("a transcript that dropped its head: matches in what it holds, and the lines searched are named", async () => {
    await small.ok("terminal_open", { name: "d", command: "bash" });
    assert.equal((await small.ok("terminal_run", { session: "d", command: "seq 1 300000", timeout_s: 60 })).reason, "osc133");
    const r = await small.ok("terminal_read", { session: "d", mode: "all", filter: "^29999[0-9]$" });
    assert.deepEqual(shown(r.output), Array.from({ length: 10 }, (_, i) => String(299990 + i)), r.output);
    const searched = /the filter searched lines (\d+)–(\d+)/.exec(r.note ?? "");
    assert.ok(searched, r.note);
    assert.ok(Number(searched[1]) > 100_000, r.note);
    assert.ok(Number(searched[2]) >= 300_001, r.note);
    assert.match(r.note, /recording/);
    // A match only the recording holds is not made up from a cut line.
    const gone = await small.ok("terminal_read", { session: "d", mode: "all", filter: "^1234[0-9]$" });
    assert.deepEqual(shown(gone.output), [], gone.output);
    assert.match(gone.note, /the filter searched lines/);
  });

  test("raw with a filter: every read mode keeps only the matching lines, as the program wrote them", async () => {
    await h.ok("terminal_open", { name: "raw", command: "bash" });
    // Coloured as a compiler colours its errors: `^ERROR` meets the colour code in the raw text.
    const lines = ["ok 1", "ERROR 2", "ok 3", "ok 4", "ERROR 5", "ok 6"].map((line) => (line.startsWith("ERROR") ? `\\033[1;31m${line.slice(0, 5)}\\033[0m${line.slice(5)}` : line));
    const command = `printf '${lines.join("\\n")}\\n'`;
    const run = await h.ok("terminal_run", { session: "raw", command });
    assert.equal(run.reason, "osc133");
    const errors = (output: string) => output.split("\n").filter((line) => !MARKER.test(line) && !line.startsWith("no line matches") && line.trim() !== "");
    const expected = ["\x1b[1;31mERROR\x1b[0m 2", "\x1b[1;31mERROR\x1b[0m 5"];
    const all = await h.ok("terminal_read", { session: "raw", mode: "all", raw: true, filter: "^ERROR \\d$" });
    assert.deepEqual(errors(all.output).map((line) => line.replace(/\r$/, "")), expected, JSON.stringify(all.output));
    assert.ok(all.folded_lines > 0, JSON.stringify(all));
    // With context: the neighbours come as written too, and nothing else.
    const context = await h.ok("terminal_read", { session: "raw", mode: "all", raw: true, filter: "^ERROR 5$", context: 1 });
    assert.deepEqual(errors(context.output).map((line) => line.replace(/\r$/, "")), ["ok 4", "\x1b[1;31mERROR\x1b[0m 5", "ok 6"], JSON.stringify(context.output));
    // A line range and new output are filtered the same way.
    const range = await h.ok("terminal_read", { session: "raw", mode: "lines", from_line: 1, to_line: all.line_count, raw: true, filter: "^ERROR \\d$" });
    assert.deepEqual(errors(range.output).map((line) => line.replace(/\r$/, "")), expected, JSON.stringify(range.output));
    // Another client has read nothing yet: its new output is everything (a new process has it
    // from tmux's history, which writes the same colours with codes of its own).
    const fresh = (await h.callOnce("terminal_read", { session: "raw", mode: "new", raw: true, filter: "^ERROR 2$" })).data;
    const freshLines = errors(fresh.output);
    assert.equal(freshLines.length, 1, JSON.stringify(fresh.output));
    assert.match(freshLines[0]!, /\x1b\[[\d;]*31m/, JSON.stringify(fresh.output));
    assert.equal(freshLines[0]!.replace(/\x1b\[[\d;]*m/g, "").trimEnd(), "ERROR 2");
  });
});
