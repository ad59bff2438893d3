// A large hive message is refused at once with its bound, and nothing of it (or of the other
// texts of the same call) reaches any agent: typed into line editors, 1 MB to three shell agents
// gave no answer within 90 s.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness, type ToolResult } from "./harness.js";

const MB = "x".repeat(1024 * 1024);

/** The call's answer, or a failure saying it gave none within `ms`. */
async function answered(call: Promise<ToolResult>, ms: number): Promise<ToolResult & { ms: number }> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms)));
  try {
    return { ...(await Promise.race([call, late])), ms: Date.now() - started };
  } finally {
    clearTimeout(timer);
  }
}

describe("a hive message over its bound", () => {
  let h: Harness;
  before(async () => {
    h = await Harness.start();
    for (const name of ["a1", "a2", "a3"]) await h.ok("agent_spawn", { name, command: "bash", profile: "shell", team: "crew" });
  });
  after(async () => {
    await h?.destroy();
  });

  const screens = async () => Promise.all(["a1", "a2", "a3"].map(async (s) => (await h.ok("terminal_read", { session: s, mode: "screen" })).output as string));

  test("hive_send of 1 MB to all: refused at once, naming the bound; nothing typed", async () => {
    const r = await answered(h.call("hive_send", { targets: "all", text: MB }), 20_000);
    assert.equal(r.isError, true, r.text.slice(0, 300));
    assert.match(r.text, /1048576 bytes.*at most 65536 bytes/);
    assert.match(r.text, /Nothing was sent/);
    assert.ok(r.ms < 10_000, `answered after ${r.ms} ms`);
    for (const screen of await screens()) assert.ok(!screen.includes("xxxxxxxx"), screen);
  });

  test("hive_message: one text over the bound refuses the whole cascade; nothing typed or queued", async () => {
    const r = await answered(h.call("hive_message", { broadcast: "echo small-$((6*7))", agents: { a2: MB } }), 20_000);
    assert.equal(r.isError, true, r.text.slice(0, 300));
    assert.match(r.text, /agent a2 is 1048576 bytes.*at most 65536 bytes/);
    assert.equal((await h.ok("hive_queue", {})).queued.length, 0);
    for (const screen of await screens()) assert.ok(!screen.includes("small-") && !screen.includes("xxxxxxxx"), screen);
    // Under the bound the same call goes out to everyone.
    const ok = await h.ok("hive_message", { broadcast: "echo small-$((6*7))", when: "now" });
    assert.equal(ok.delivered, 3, JSON.stringify(ok));
  });
});
