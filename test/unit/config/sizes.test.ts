// The size and count settings read by config.ts: defaults, fractions, and a clear refusal.
import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, loadConfig } from "../../../src/config.js";

const MB = 1024 * 1024;

test("audit and recording caps: defaults 10 and 50 MB, fractions allowed", () => {
  const defaults = loadConfig({ HOME: "/tmp" });
  assert.equal(defaults.auditMaxBytes, 10 * MB);
  assert.equal(defaults.recordingMaxBytes, 50 * MB);
  const half = loadConfig({ HOME: "/tmp", TERMHIVE_AUDIT_MAX_MB: "0.5", TERMHIVE_RECORDING_MAX_MB: "2" });
  assert.equal(half.auditMaxBytes, MB / 2);
  assert.equal(half.recordingMaxBytes, 2 * MB);
});

test("serve's HTTP session limits: defaults 256 sessions and 1800 s", () => {
  const defaults = loadConfig({ HOME: "/tmp" });
  assert.equal(defaults.httpMaxSessions, 256);
  assert.equal(defaults.httpSessionTtlMs, 1_800_000);
  const set = loadConfig({ HOME: "/tmp", TERMHIVE_HTTP_MAX_SESSIONS: "3", TERMHIVE_HTTP_SESSION_TTL_S: "2" });
  assert.equal(set.httpMaxSessions, 3);
  assert.equal(set.httpSessionTtlMs, 2000);
});

test("a bad size or count is refused, naming the setting and what it takes", () => {
  for (const [name, value, want] of [
    ["TERMHIVE_AUDIT_MAX_MB", "lots", /TERMHIVE_AUDIT_MAX_MB="lots" is invalid: use a size in MB/],
    ["TERMHIVE_RECORDING_MAX_MB", "0", /TERMHIVE_RECORDING_MAX_MB="0" is invalid/],
    ["TERMHIVE_RECORDING_MAX_MB", "-3", /is invalid/],
    ["TERMHIVE_HTTP_MAX_SESSIONS", "1.5", /TERMHIVE_HTTP_MAX_SESSIONS="1.5" is invalid: use a whole number/],
    ["TERMHIVE_HTTP_SESSION_TTL_S", "0", /TERMHIVE_HTTP_SESSION_TTL_S="0" is invalid/],
  ] as const) {
    assert.throws(() => loadConfig({ HOME: "/tmp", [name]: value }), (e: Error) => e instanceof ConfigError && want.test(e.message), `${name}=${value}`);
  }
});

test("typed text limit: 1 MiB by default (bash types ~19 s per MiB), settable", () => {
  assert.equal(loadConfig({ HOME: "/tmp" }).maxInputBytes, MB);
  assert.equal(loadConfig({ HOME: "/tmp", TERMHIVE_MAX_INPUT_BYTES: "4096" }).maxInputBytes, 4096);
});
