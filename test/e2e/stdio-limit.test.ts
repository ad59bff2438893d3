// The stdio door's line limit: a request longer than it (a 10 MB terminal_send) is answered
// with a JSON-RPC error naming the limit and said on stderr; the server lives and serves
// every later call. Before, the SDK's 10 MiB read buffer overflowed and closed the
// transport: the server exited 0 in silence and the client read "Connection closed".
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("stdio line limit", () => {
  let h: Harness;
  let stderr = "";
  before(async () => {
    // The smallest input limit keeps the stdio limit at 1 MiB + 1 KiB.
    h = await Harness.startField({ TERMHIVE_MAX_INPUT_BYTES: "1024" });
    h.transport.stderr?.on("data", (d) => (stderr += String(d)));
  });
  after(async () => h.destroy());

  test("an 11 MiB request gets an error naming the limit; the server serves the next calls", async () => {
    await h.ok("terminal_open", { name: "big" });
    const limit = 1024 + 1024 * 1024;
    await assert.rejects(
      h.client.callTool({ name: "terminal_send", arguments: { session: "big", text: "x".repeat(11 * 1024 * 1024), enter: false } }, undefined, { timeout: 120_000 }),
      (error: Error) => {
        assert.match(error.message, new RegExp(`the stdio limit is ${limit} bytes \\(TERMHIVE_MAX_INPUT_BYTES \\+ 1 MiB\\)`));
        return true;
      },
    );
    assert.match(stderr, new RegExp(`dropped a \\d+-byte stdio line \\(limit ${limit} bytes\\) for request \\d+`));
    const run = await h.ok("terminal_run", { session: "big", command: "echo still-here" });
    assert.equal(run.exit_code, 0);
    assert.match(run.output, /still-here/);
    // Under the stdio limit, the text limit is the one that answers.
    const over = await h.call("terminal_send", { session: "big", text: "y".repeat(4096), enter: false });
    assert.ok(over.isError);
    assert.match(over.text, /the limit is 1024 \(TERMHIVE_MAX_INPUT_BYTES\)/);
  });
});
