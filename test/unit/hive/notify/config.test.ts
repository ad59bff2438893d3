// notify.json and TERMHIVE_NOTIFY_URL: parsed once, every mistake a clear error that names the
// field and never echoes a URL (it may carry a token).
import { test } from "node:test";
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { ConfigError, loadConfig } from "../../../../src/config.js";
import { DEFAULT_KINDS, inQuietHours, loadNotifyConfig, NotifyConfigError, parseNotifyConfig } from "../../../../src/hive/notify/index.js";
import { tempFolder } from "../../../temp-folder.js";

test("TERMHIVE_NOTIFY_URL: a comma list; ntfy topic URLs are known by host", () => {
  const config = loadConfig({ TERMHIVE_NOTIFY_URL: "https://hooks.slack.com/services/T/B/x, https://ntfy.sh/my-topic" });
  assert.deepEqual(config.notifyUrls, ["https://hooks.slack.com/services/T/B/x", "https://ntfy.sh/my-topic"]);
  const notify = parseNotifyConfig(null, config.notifyUrls);
  assert.deepEqual(notify.endpoints.map((e) => e.kind), ["webhook", "ntfy"]);
  assert.deepEqual(notify.endpoints[0]!.events, [...DEFAULT_KINDS]);
  assert.ok(!notify.endpoints[0]!.events.includes("turn_done"), "a finished turn is opt-in");
  assert.deepEqual(loadConfig({}).notifyUrls, []);
});

test("a bad TERMHIVE_NOTIFY_URL entry is refused by position, without echoing it", () => {
  assert.throws(() => loadConfig({ TERMHIVE_NOTIFY_URL: "https://ok.example/a,ftp://secret-token@x/y" }), (e: Error) => {
    assert.ok(e instanceof ConfigError);
    assert.match(e.message, /entry 2/);
    assert.doesNotMatch(e.message, /secret-token/);
    return true;
  });
  assert.throws(() => loadConfig({ TERMHIVE_NOTIFY_URL: "not a url" }), /entry 1: not a URL/);
});

test("notify.json: endpoints with kinds, filters, events, quiet hours, debounce", () => {
  const c = parseNotifyConfig(
    JSON.stringify({
      debounce_s: 5,
      attempts: 2,
      endpoints: [
        { kind: "desktop" },
        { url: "https://discord.com/api/webhooks/1/tok", agents: ["alice"], teams: ["web"], events: ["waiting", "turn_done"], quiet_hours: { from: "22:30", to: "07:00" } },
        { kind: "ntfy", url: "https://push.example/topic" },
      ],
    }),
    ["https://a.example/x"],
  );
  assert.equal(c.debounceMs, 5000);
  assert.equal(c.attempts, 2);
  assert.deepEqual(c.endpoints.map((e) => e.kind), ["webhook", "desktop", "webhook", "ntfy"]);
  assert.deepEqual(c.endpoints[2], {
    kind: "webhook", url: "https://discord.com/api/webhooks/1/tok", agents: ["alice"], teams: ["web"], events: ["waiting", "turn_done"], quiet: { from: 22 * 60 + 30, to: 7 * 60 },
  });
});

test("notify.json mistakes name the field", () => {
  const bad = (o: unknown, re: RegExp) => assert.throws(() => parseNotifyConfig(typeof o === "string" ? o : JSON.stringify(o), []), (e: Error) => e instanceof NotifyConfigError && re.test(e.message));
  bad("{", /not valid JSON/);
  bad({ endpoint: [] }, /unknown field "endpoint"/);
  bad({ endpoints: [{ kind: "pager" }] }, /endpoints\[0\]\.kind: use webhook, ntfy or desktop/);
  bad({ endpoints: [{ kind: "webhook" }] }, /endpoints\[0\]\.url: a webhook endpoint needs a url/);
  bad({ endpoints: [{ url: "file:///etc/passwd" }] }, /endpoints\[0\]\.url: file: URLs are not sent to/);
  bad({ endpoints: [{ url: "https://x.example", events: ["waiting", "bored"] }] }, /unknown event "bored"/);
  bad({ endpoints: [{ url: "https://x.example", quiet_hours: { from: "25:00", to: "07:00" } }] }, /quiet_hours\.from: write a local time as HH:MM/);
  bad({ debounce_s: -1 }, /debounce_s: use a whole number/);
});

test("loadNotifyConfig reads <home>/notify.json when it is there", () => {
  const home = tempFolder("termhive-notify-");
  assert.equal(loadNotifyConfig(home, []).endpoints.length, 0);
  writeFileSync(join(home, "notify.json"), JSON.stringify({ endpoints: [{ kind: "desktop" }] }));
  assert.deepEqual(loadNotifyConfig(home, []).endpoints.map((e) => e.kind), ["desktop"]);
  writeFileSync(join(home, "notify.json"), "{oops");
  assert.throws(() => loadNotifyConfig(home, []), new RegExp(`${join(home, "notify.json").replace(/[/.]/g, "\\$&")}: not valid JSON`));
});

test("quiet hours: a plain range and one across midnight", () => {
  const at = (h: number, m = 0) => new Date(2026, 0, 1, h, m);
  const day = { from: 9 * 60, to: 17 * 60 };
  assert.equal(inQuietHours(day, at(12)), true);
  assert.equal(inQuietHours(day, at(17)), false);
  const night = { from: 22 * 60, to: 7 * 60 };
  assert.equal(inQuietHours(night, at(23, 59)), true);
  assert.equal(inQuietHours(night, at(6, 59)), true);
  assert.equal(inQuietHours(night, at(7)), false);
  assert.equal(inQuietHours(undefined, at(3)), false);
});
