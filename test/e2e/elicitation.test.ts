// A command the safety gate refuses is put to the person at the client when the client supports
// MCP elicitation (issue 24): accept runs it, decline refuses it. Without the capability, or with
// TERMHIVE_ELICIT=off, the refusal goes to the model as before (confirm: true from the model).
// The client is the MCP SDK's, declaring the elicitation capability and answering as a person would.
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { Harness } from "./harness.js";
import { tempFolder } from "../temp-folder.js";

// Trips the gate (git reset --hard) but cannot touch a repository: an empty temp dir (removed after) and a GIT_DIR that does not exist.
const RISKY = '(d=$(mktemp -d) && cd "$d" && GIT_DIR=/nonexistent git reset --hard; rmdir "$d"); echo GATE-$((6*7))-RAN';

const harnesses: Harness[] = [];

/** A server whose client answers elicitation with `answer` (undefined: the client cannot ask). */
async function clientAnswering(answer: "accept" | "decline" | undefined, env: Record<string, string> = {}) {
  const home = tempFolder("termhive-elicit-");
  const userHome = join(home, "user");
  mkdirSync(userHome);
  writeFileSync(join(userHome, ".bashrc"), "");
  const h = new Harness(home, { HOME: userHome, ...env });
  harnesses.push(h);
  if (answer) h.clientOptions = { capabilities: { elicitation: { form: {} } } };
  await h.connect();
  const asked: string[] = [];
  if (answer) {
    h.client.setRequestHandler(ElicitRequestSchema, async (request) => {
      asked.push(request.params.message);
      return answer === "accept" ? { action: "accept", content: {} } : { action: "decline" };
    });
  }
  await h.ok("terminal_open", { name: "sh", command: "bash" });
  return { h, asked };
}

async function ran(h: Harness): Promise<boolean> {
  const all = (await h.ok("terminal_read", { session: "sh", mode: "all" })).output as string;
  return /^GATE-42-RAN$/m.test(all);
}

describe("the safety gate asks the person when the client can", () => {
  after(async () => {
    for (const h of harnesses) await h.destroy();
  });

  test("accept: the person's yes runs the command", async () => {
    const { h, asked } = await clientAnswering("accept");
    const r = await h.call("terminal_run", { session: "sh", command: RISKY });
    assert.equal(r.isError, false, r.text);
    assert.equal(asked.length, 1);
    assert.match(asked[0]!, /git reset --hard/);
    assert.match(r.text, /^GATE-42-RAN$/m);
  });

  test("decline: refused, nothing typed, and the model is told a person said no", async () => {
    const { h, asked } = await clientAnswering("decline");
    const r = await h.call("terminal_run", { session: "sh", command: RISKY });
    assert.equal(r.isError, true);
    assert.equal(asked.length, 1);
    assert.match(r.text, /declined/);
    assert.equal(await ran(h), false);
  });

  test("the same for hive_message: accept delivers the refused text", async () => {
    const { h, asked } = await clientAnswering("accept");
    await h.ok("agent_register", { name: "a1", session: "sh", profile: "shell" });
    const sent = await h.call("hive_message", { agents: { a1: RISKY }, when: "now" });
    assert.equal(sent.isError, false, sent.text);
    assert.equal(asked.length, 1);
    assert.equal((await h.ok("terminal_wait", { session: "sh", pattern: "^GATE-42-RAN$", timeout_s: 10 })).matched, true);
  });

  test("a client without elicitation gets the refusal naming confirm: true, as before", async () => {
    const { h } = await clientAnswering(undefined);
    const r = await h.call("terminal_run", { session: "sh", command: RISKY });
    assert.equal(r.isError, true);
    assert.match(r.text, /refused by the safety gate.*confirm: true/s);
    assert.equal(await ran(h), false);
    assert.equal((await h.call("terminal_run", { session: "sh", command: RISKY, confirm: true })).isError, false);
  });

  test("TERMHIVE_ELICIT=off: a capable client is not asked; confirm: true stays the way", async () => {
    const { h, asked } = await clientAnswering("accept", { TERMHIVE_ELICIT: "off" });
    const r = await h.call("terminal_run", { session: "sh", command: RISKY });
    assert.equal(r.isError, true);
    assert.equal(asked.length, 0);
    assert.match(r.text, /confirm: true/);
    assert.equal(await ran(h), false);
  });
});
