// An agent's own status report: CLI arguments and the in-pane OSC 1337 form.
import { test } from "node:test";
import assert from "node:assert/strict";
import { HiveError, encodeStatusOsc, parseStatusArgs, parseStatusOsc } from "../../../src/hive/index.js";
import { openHive } from "./helpers.js";

test("CLI form: status word then free-text detail", () => {
  assert.deepEqual(parseStatusArgs(["working", "refactoring auth"]), { status: "working", detail: "refactoring auth" });
  assert.deepEqual(parseStatusArgs(["working", "refactoring", "auth"]), { status: "working", detail: "refactoring auth" });
  assert.deepEqual(parseStatusArgs(["IDLE"]), { status: "idle", detail: null });
  assert.deepEqual(parseStatusArgs(["waiting", "need a decision"]), { status: "waiting_for_input", detail: "need a decision" });
  assert.equal(parseStatusArgs(["error", "x".repeat(500)]).detail!.length, 200);
  assert.throws(() => parseStatusArgs([]), /usage: termhive status/);
  assert.throws(() => parseStatusArgs(["exited"]), (err: unknown) => err instanceof HiveError && /set by termhive when the pane's program ends/.test(err.message));
  assert.throws(() => parseStatusArgs(["busy"]), /unknown status "busy"; use one of starting, working, idle, waiting_for_input, error/);
});

test("OSC form: encode → parse round trip, with awkward details and both terminators", () => {
  const detail = "50% done; a=b & c — ünïcode";
  const seq = encodeStatusOsc({ status: "working", detail });
  assert.ok(seq.startsWith("\x1b]1337;Custom=id=termhive:status=working&detail="));
  assert.ok(seq.endsWith("\x07"));
  assert.deepEqual(parseStatusOsc(seq), { ok: true, value: { status: "working", detail } });
  const st = encodeStatusOsc({ status: "idle", detail: null, agent: "api" }, "st");
  assert.ok(st.endsWith("\x1b\\"));
  assert.deepEqual(parseStatusOsc(st), { ok: true, value: { status: "idle", detail: null, agent: "api" } });
  // The body alone, as an OSC parser hands it over; ';' separators; what a shell printf produces.
  assert.deepEqual(parseStatusOsc("1337;Custom=id=termhive:status=waiting;detail=pick%20one;v=1;future=x"), {
    ok: true,
    value: { status: "waiting_for_input", detail: "pick one" },
  });
  assert.deepEqual(parseStatusOsc("\x1b]1337;Custom=id=termhive:status=working&detail=tests\x07"), {
    ok: true,
    value: { status: "working", detail: "tests" },
  });
});

test("OSC form: other programs' OSC 1337 is not ours; malformed termhive payloads are reported, not thrown", () => {
  assert.equal(parseStatusOsc("\x1b]1337;Custom=id=other:hello\x07"), null);
  assert.equal(parseStatusOsc("\x1b]1337;SetMark\x07"), null);
  assert.equal(parseStatusOsc("\x1b]0;window title\x07"), null);
  const bad = (body: string) => parseStatusOsc("1337;Custom=id=termhive:" + body);
  assert.deepEqual(bad("detail=x"), { ok: false, error: "termhive OSC: missing status=…" });
  assert.equal(bad("status=sleeping")?.ok, false);
  assert.match((bad("status=working&detail=%E0%A4%A") as { error: string }).error, /percent-encoding/);
  assert.match((bad("garbage") as { error: string }).error, /malformed field 'garbage'/);
  assert.match((bad("v=2&status=idle") as { error: string }).error, /unsupported payload version 2/);
});

test("a self-reported status is recorded with source 'self' and produces one event", () => {
  const { hive, done } = openHive();
  try {
    hive.agents.register({ name: "api", sessionId: "s1" });
    const parsed = parseStatusOsc(encodeStatusOsc({ status: "working", detail: "refactoring auth" }));
    assert.ok(parsed?.ok);
    const r = hive.applySelfStatus("api", parsed.value);
    assert.equal(r.changed, true);
    assert.deepEqual([r.agent.status, r.agent.statusDetail, r.agent.statusSource], ["working", "refactoring auth", "self"]);
    assert.equal(hive.applySelfStatus("api", parseStatusArgs(["working", "refactoring auth"])).changed, false);
    const ev = hive.events.since(0, { kinds: ["status"] }).events;
    assert.deepEqual(ev.map((e) => [e.agent, e.data.status, e.data.source]), [["api", "working", "self"]]);
    assert.throws(() => hive.applySelfStatus("ghost", { status: "idle", detail: null }), /unknown agent 'ghost'/);
  } finally {
    done();
  }
});
