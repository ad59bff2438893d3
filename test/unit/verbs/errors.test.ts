// One error mapping for every door: the same thrown error is the same answer over MCP, gRPC,
// the CLI and HTTP; only what is not an answer reads "internal error".
import { test } from "node:test";
import assert from "node:assert/strict";
import { z } from "zod";
import { UnsupportedByBackend } from "../../../src/backends/backend.js";
import { TmuxGoneError } from "../../../src/backends/tmux/control.js";
import { HiveError, HiveStoreError } from "../../../src/hive/index.js";
import { ToolError } from "../../../src/service/errors.js";
import { GRPC_STATUS, classify, cliFailure, grpcFailure, httpFailure, toolErrorResult } from "../../../src/verbs/errors.js";

test("tmux gone is an answer everywhere: UNAVAILABLE, 503, its own message", () => {
  const gone = new TmuxGoneError("server exited unexpectedly");
  assert.deepEqual(grpcFailure(gone), { code: GRPC_STATUS.UNAVAILABLE, details: gone.message, toolCode: "unavailable" });
  assert.equal(httpFailure(gone).status, 503);
  assert.deepEqual(toolErrorResult(gone), { content: [{ type: "text", text: gone.message }], isError: true });
  assert.deepEqual(cliFailure(gone), { message: gone.message, code: "unavailable", exit: 1 });
});

test("service, hive, store and backend errors keep their message and get their code", () => {
  const cases: [unknown, string, number, number][] = [
    [new ToolError("unknown session \"x\"", "not_found"), "not_found", GRPC_STATUS.NOT_FOUND, 404],
    [new ToolError("busy", "busy"), "busy", GRPC_STATUS.FAILED_PRECONDITION, 409],
    [new ToolError("gate", "refused"), "refused", GRPC_STATUS.PERMISSION_DENIED, 403],
    [new HiveError("unknown", "unknown agent 'a'"), "not_found", GRPC_STATUS.NOT_FOUND, 404],
    [new HiveError("cycle", "team cycle"), "invalid", GRPC_STATUS.INVALID_ARGUMENT, 400],
    [new HiveStoreError("corrupt", "/x/hive.db", "hive database is corrupt"), "unavailable", GRPC_STATUS.UNAVAILABLE, 503],
    [new UnsupportedByBackend("pty", "focusing a pane"), "unsupported", GRPC_STATUS.UNIMPLEMENTED, 501],
  ];
  for (const [error, code, grpc, http] of cases) {
    const message = (error as Error).message;
    assert.deepEqual(classify(error), { code, message });
    assert.deepEqual(grpcFailure(error), { code: grpc, details: message, toolCode: code });
    assert.equal(httpFailure(error).status, http);
    assert.equal(toolErrorResult(error).content[0]!.text, message);
  }
});

test("bad input read by zod names the field; a bug is an internal error with no code for the client", () => {
  const zod = z.object({ rows: z.number() }).safeParse({ rows: "x" }).error!;
  assert.equal(classify(zod).code, "invalid");
  assert.match(classify(zod).message, /^rows: /);
  const bug = new TypeError("x is undefined");
  assert.deepEqual(grpcFailure(bug), { code: GRPC_STATUS.INTERNAL, details: "internal error: x is undefined", toolCode: undefined });
  assert.equal(httpFailure(bug).status, 500);
  assert.equal(toolErrorResult(bug).content[0]!.text, "internal error: x is undefined");
});

test("the CLI exits 2 for a hive refusal of its arguments, 1 for every other error", () => {
  assert.equal(cliFailure(new HiveError("invalid", "bad status")).exit, 2);
  assert.equal(cliFailure(new HiveError("cycle", "cycle")).exit, 2);
  assert.equal(cliFailure(new HiveError("unknown", "no agent")).exit, 1);
  assert.equal(cliFailure(new ToolError("bad regex")).exit, 1);
  assert.equal(cliFailure(new Error("boom")).message, "boom");
  // A schema's refusal reads as its fields, not as zod's JSON dump of its issues.
  const schema = z.object({ text: z.string().max(3) }).safeParse({ text: "long" });
  assert.deepEqual(cliFailure(schema.error), { message: "text: Too big: expected string to have <=3 characters", code: "invalid", exit: 1 });
});
