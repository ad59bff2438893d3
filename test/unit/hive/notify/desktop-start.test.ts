// The desktop endpoint runs notify-send (or osascript on macOS) when the machine has one; a
// notify.json that cannot be used turns notifications off with a clear line, never the hive.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { AuditLog } from "../../../../src/audit.js";
import { desktopCommand, sendWithRetry, type Notice } from "../../../../src/hive/notify/index.js";
import { startNotifier } from "../../../../src/hive/displays/notify-start.js";
import { Emitter } from "../../../../src/util/event.js";
import { openHive } from "../helpers.js";
import { tempFolder } from "../../../temp-folder.js";

const notice: Notice = { id: 1, kind: "waiting", agent: "alice", team: null, title: "alice needs you", message: "alice is waiting for input", at: 0 };

test("desktop: a notify-send on PATH is run with the title and message; without one, it says so and does not retry", async () => {
  const bin = tempFolder("termhive-bin-");
  const out = join(bin, "args.txt");
  writeFileSync(join(bin, "notify-send"), `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(out)}\n`);
  chmodSync(join(bin, "notify-send"), 0o755);
  const path = process.env.PATH;
  try {
    process.env.PATH = bin;
    assert.deepEqual(desktopCommand(notice, "linux"), ["notify-send", ["--app-name=termhive", "termhive: alice needs you", "alice is waiting for input"]]);
    const ok = await sendWithRetry({ kind: "desktop", events: ["waiting"] }, notice, { timeoutMs: 5000, attempts: 3, backoffMs: 10 });
    assert.deepEqual(ok, { ok: true, attempts: 1 });
    assert.equal(readFileSync(out, "utf8"), "--app-name=termhive\ntermhive: alice needs you\nalice is waiting for input\n");
    process.env.PATH = tempFolder("termhive-empty-");
    assert.equal(desktopCommand(notice, "linux"), null);
    const none = await sendWithRetry({ kind: "desktop", events: ["waiting"] }, notice, { timeoutMs: 5000, attempts: 3, backoffMs: 10 });
    assert.deepEqual(none, { ok: false, attempts: 1, error: "no notify-send or osascript on this machine" });
  } finally {
    process.env.PATH = path;
  }
});

test("a notify.json that cannot be used: notifications off, said on stderr and in the audit log; the hive is untouched", () => {
  const { hive, home, done } = openHive();
  writeFileSync(join(home, "notify.json"), JSON.stringify({ endpoints: [{ kind: "pager" }] }));
  const written: string[] = [];
  const write = process.stderr.write.bind(process.stderr);
  process.stderr.write = ((chunk: string) => (written.push(String(chunk)), true)) as typeof process.stderr.write;
  try {
    const stop = startNotifier(hive, { home, notifyUrls: [] }, new AuditLog(home, 1 << 20), new Emitter<never>().event, () => undefined);
    stop();
  } finally {
    process.stderr.write = write;
  }
  assert.match(written.join(""), /notifications are off: .*notify\.json\.endpoints\[0\]\.kind: use webhook, ntfy or desktop/);
  const audit = readFileSync(join(home, "audit.jsonl"), "utf8");
  assert.match(audit, /"event":"notify_config","outcome":"off"/);
  hive.agents.register({ name: "a", sessionId: "s1" });
  assert.equal(hive.agents.find("a")?.name, "a");
  done();
});
