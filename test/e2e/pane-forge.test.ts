// A pane's program controls its working folder and its argv[0]; tmux lists both in the line
// termhive reads every pane's identity from. A folder or program name holding tabs or a
// newline must stay that pane's own odd field: before the fix a tab-laden folder supplied the
// identity record itself (another session's id and name), so the lead's commands and secrets
// for "victim" were typed into the forging pane, and a newline stopped every listing on the home.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Harness } from "./harness.js";

describe("a pane's folder and program name cannot forge a session's identity", () => {
  let h: Harness;
  let other: Harness;
  let victimId: string;
  before(async () => {
    h = await Harness.start();
    other = await h.sibling();
    victimId = (await h.ok("terminal_open", { name: "victim", command: "bash" })).session;
    await h.ok("terminal_open", { name: "evil", command: "bash" });
  });
  after(async () => {
    await other.close();
    await h.destroy();
  });

  const names = async (harness: Harness) => ((await harness.ok("terminal_list")).sessions as { name: string }[]).map((s) => s.name).sort();

  test("a folder with tabs and a forged record: victim keeps its pane, evil stays listed as itself", async () => {
    const record = Buffer.from(JSON.stringify({ id: victimId, name: "victim", created: "1", command: "/bin/bash", shell: "bash" })).toString("base64url");
    const cd = await h.ok("terminal_run", { session: "evil", command: `d=$(printf '/tmp/forge-%s\\t40\\t120\\t%s' $$ ${record}); mkdir -p "$d" && cd "$d" && echo in-forged-folder` });
    assert.equal(cd.output, "in-forged-folder");
    for (const harness of [h, other]) {
      const ran = await harness.ok("terminal_run", { session: "victim", command: "echo name=$TERMHIVE_SESSION_NAME" });
      assert.equal(ran.output, "name=victim");
      assert.deepEqual(await names(harness), ["evil", "victim"]);
    }
    const evil = await other.ok("terminal_run", { session: "evil", command: "echo name=$TERMHIVE_SESSION_NAME" });
    assert.equal(evil.output, "name=evil");
  });

  test("a folder with a newline: every process still lists and runs", async () => {
    await h.ok("terminal_run", { session: "evil", command: "mkdir -p $'/tmp/nl-'$$$'\\nx' && cd $'/tmp/nl-'$$$'\\nx'" });
    for (const harness of [h, other]) {
      assert.deepEqual(await names(harness), ["evil", "victim"]);
      assert.equal((await harness.ok("terminal_run", { session: "victim", command: "echo still" })).output, "still");
    }
    await h.ok("terminal_run", { session: "evil", command: "cd /tmp" });
  });

  test("a program named with tabs and a newline, while it runs: listings hold and name no one else", async () => {
    await h.ok("terminal_send", { session: "evil", text: `python3 -c 'import os; os.execv("/bin/sleep", ["sl\\teep\\t40\\t120\\tx\\ny", "30"])'` });
    const running = async () => {
      const listed = (await other.ok("terminal_list")).sessions as { name: string; foreground?: string }[];
      return listed.find((s) => s.name === "evil")?.foreground;
    };
    let seen: string | undefined;
    // tmux names a pane's program from its argv[0] as the process runs: asked until it shows.
    const deadline = Date.now() + 15_000;
    while (!(seen ?? "").startsWith("sl") && Date.now() < deadline) seen = await running();
    assert.ok((seen ?? "").startsWith("sl"), `evil's program as listed: ${JSON.stringify(seen)}`);
    assert.deepEqual(await names(other), ["evil", "victim"]);
    assert.equal((await other.ok("terminal_run", { session: "victim", command: "echo name=$TERMHIVE_SESSION_NAME" })).output, "name=victim");
    await h.ok("terminal_send", { session: "evil", keys: ["C-c"] });
  });
});
