// One unsandboxed agent approves another's held permission request (issue 30 §7): allowed, as
// before, and the audit log names the pane that answered. The request is held by the real
// `termhive hook PermissionRequest --wait` in the asking agent's pane; the answer is the real
// `termhive answer` typed in the approving agent's pane.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { Harness } from "./harness.js";
import { until } from "../until.js";

describe("an agent answering another's held permission request", () => {
  let h: Harness;
  let work = "";

  before(async () => {
    h = await Harness.start();
    work = join(h.home, "work");
    mkdirSync(work);
  });
  after(async () => {
    await h?.destroy();
  });

  const audit = () => readFileSync(join(h.home, "audit.jsonl"), "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);

  test("allowed, through the asker's hook; the audit line names the answering pane and its agent", async () => {
    await h.ok("agent_spawn", { name: "asker", command: "bash", cwd: work });
    await h.ok("agent_spawn", { name: "approver", command: "bash", cwd: work });
    const payload = JSON.stringify({ tool_name: "Bash", tool_input: { command: "touch made-by-asker" } });
    await h.ok("terminal_send", { session: "asker", text: `termhive hook PermissionRequest --status waiting_for_input --wait 60 '${payload}' > decision.json; echo held-$((1+1))` });
    const question = await until("the asker's held request in agent_list", async () => {
      const a = (await h.ok("agent_list")).agents.find((x: { name: string }) => x.name === "asker");
      return a?.question?.digest as string | undefined;
    }, 30_000);
    const answered = await h.ok("terminal_run", { session: "approver", command: `termhive answer asker yes --question ${question}`, timeout_s: 30 });
    assert.equal(answered.exit_code, 0, answered.output);
    await h.ok("terminal_wait", { session: "asker", pattern: "held-2", timeout_s: 30 });
    assert.match(readFileSync(join(work, "decision.json"), "utf8"), /"behavior":"allow"/);
    const line = audit().find((e) => e.event === "answer" && e.agent === "asker");
    assert.ok(line, "no audit line for the answer");
    assert.equal(line.decision, "allow");
    assert.equal(line.question, question);
    assert.match(line.pane ?? "", /^approver \([^)]+\), agent approver$/);
  });
});
