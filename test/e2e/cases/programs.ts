// A REPL and large input/output through the MCP client, on any backend: the paste must arrive
// byte-exact and a flood of output must be complete (nothing dropped between pane and session).
import { after, before, describe } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { Harness } from "../harness.js";
import { testFor } from "./known-gaps.js";
import { backendEnv, backendLabel } from "./shells.js";

/** ~100 KB of lines (each well under the tty's 4 KiB line limit) with multi-byte UTF-8 mixed in. */
export function pasteText(): string {
  const lines: string[] = [];
  for (let i = 0; lines.join("\n").length < 100_000; i++) {
    lines.push(`${String(i).padStart(5, "0")} the quick brown fox — jumps over ${"x".repeat(i % 60)} é→✓ ${"'\"$`\\;&|"} end`);
  }
  return lines.join("\n");
}

export function programCases(backend?: string): void {
  const test = testFor(backend);
  describe(`programs and large I/O${backendLabel(backend)}`, () => {
    let h: Harness;
    before(async () => {
      h = await Harness.start(backendEnv(backend));
    });
    after(async () => h.destroy());

    test("python3 REPL: a run completes at the >>> prompt with its output", async () => {
      const opened = await h.ok("terminal_open", { name: "py", command: "python3" });
      if (backend) assert.equal(opened.backend, backend);
      // Its banner and first prompt first (a run typed before them raced the banner under load).
      assert.equal((await h.ok("terminal_wait", { session: "py", pattern: "^>>> $", timeout_s: 30 })).matched, true);
      const r = await h.ok("terminal_run", { session: "py", command: "print(6*7)" });
      assert.equal(r.complete, true);
      assert.match(r.output, /^42$/m);
      const def = await h.ok("terminal_run", { session: "py", command: "def f(x):\n    return x * 3\n\nprint(f(14))" });
      assert.equal(def.complete, true);
      assert.match(def.output, /^42$/m);
      await h.ok("terminal_close", { session: "py", force: true });
    });

    test("a 100 KB paste into `cat > file` arrives byte-exact", async () => {
      await h.ok("terminal_open", { name: "paste", command: "bash" });
      const file = `${h.home}/paste.txt`;
      const started = await h.ok("terminal_run", { session: "paste", command: `cat > ${file}`, timeout_s: 0.3 });
      assert.equal(started.running, true);
      const text = pasteText();
      assert.ok(Buffer.byteLength(text) > 100_000);
      await h.ok("terminal_send", { session: "paste", text, enter: true });
      await h.ok("terminal_send", { session: "paste", keys: ["C-d"] });
      const done = await h.ok("terminal_wait", { session: "paste", for: "completion", timeout_s: 30 });
      assert.equal(done.exit_code, 0);
      const expected = createHash("sha256").update(text + "\n").digest("hex");
      const sum = await h.ok("terminal_run", { session: "paste", command: `sha256sum < ${file}` });
      assert.equal(sum.output.split(/\s+/)[0], expected);
    });

    test("seq 1 200000: the run completes and every line reaches the session", async () => {
      await h.ok("terminal_open", { name: "flood", command: "bash" });
      const r = await h.ok("terminal_run", { session: "flood", command: "seq 1 200000", timeout_s: 60 });
      assert.equal(r.complete, true);
      assert.equal(r.reason, "osc133");
      assert.equal(r.exit_code, 0);
      assert.match(r.output, /^200000$/m);
      assert.ok(r.folded_lines > 0);
      // Lines from the start, middle and end of the flood are all held by the session.
      const found = await h.ok("terminal_read", { session: "flood", mode: "all", filter: "^(1|100000|199999|200000)$" });
      for (const n of ["1", "100000", "199999", "200000"]) assert.match(found.output, new RegExp(`^${n}$`, "m"));
    });
  });
}
