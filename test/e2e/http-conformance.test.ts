// The official MCP conformance runner (@modelcontextprotocol/conformance, pinned in
// scripts/conformance/) against a real `termhive serve`: every server scenario it knows is
// either listed here as applying to termhive, and must pass, or listed as not applying, with
// the reason. A new runner version with new scenarios fails the coverage test until someone
// decides. The runner needs Node 22, which is installed next to it as an npm package.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type Served } from "./serve-process.js";
import { pinnedRunner, resultsIn, type Check, type Runner } from "./conformance-runner.js";

/** Scenarios that test protocol behaviour every MCP server has; termhive must pass them. */
const APPLIES = [
  "server-initialize",
  "ping",
  "logging-set-level",
  "tools-list",
  "resources-list",
  "resources-subscribe",
  "resources-unsubscribe",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
];

/**
 * Scenarios that call a fixture (a tool, resource or prompt with a test:// or test_ name the
 * scenario's own reference server defines) or a feature termhive does not use. The reasons are
 * repeated in the README's HTTP section.
 */
const DOES_NOT_APPLY: Record<string, string> = {
  "completion-complete": "asks completions for the fixture prompt test_prompt_with_arguments; termhive's prompts offer no completions",
  "tools-call-simple-text": "calls the fixture tool test_simple_text, which termhive does not have (an unknown tool: -32602)",
  "tools-call-error": "calls the fixture tool test_error_handling, which termhive does not have (an unknown tool: -32602)",
  "tools-call-image": "fixture tool returning image content; termhive returns text only",
  "tools-call-audio": "fixture tool returning audio content; termhive returns text only",
  "tools-call-embedded-resource": "fixture tool returning an embedded resource; termhive's tools do not",
  "tools-call-mixed-content": "fixture tool returning text + image + resource",
  "tools-call-with-logging": "fixture tool test_tool_with_logging; termhive's tools send no log notifications",
  "tools-call-with-progress": "fixture tool test_tool_with_progress (termhive's run/wait progress is covered by its own e2e tests)",
  "tools-call-sampling": "fixture tool that asks the client for LLM sampling; termhive never samples",
  "tools-call-elicitation": "fixture tool that elicits user input; termhive never elicits",
  "elicitation-sep1034-defaults": "elicitation with defaults; termhive never elicits",
  "elicitation-sep1330-enums": "elicitation with enums; termhive never elicits",
  "json-schema-2020-12": "fixture tool json_schema_2020_12_tool with $defs/$ref; termhive's schemas come from zod",
  "server-sse-polling": "calls the fixture tool test_reconnection, which must close its SSE stream mid-call",
  "resources-read-text": "reads the fixture resource test://static-text",
  "resources-read-binary": "reads the fixture resource test://static-binary; termhive's resources are text",
  "resources-templates-read": "reads the fixture template test://template/{id}/data",
  "prompts-get-simple": "gets the fixture prompt test_simple_prompt",
  "prompts-get-with-args": "gets the fixture prompt test_prompt_with_arguments",
  "prompts-get-embedded-resource": "gets the fixture prompt test_prompt_with_embedded_resource",
  "prompts-get-with-image": "gets the fixture prompt test_prompt_with_image",
};

const skip = process.env.TERMHIVE_SKIP_CONFORMANCE === "1" ? "TERMHIVE_SKIP_CONFORMANCE=1" : false;

describe("MCP conformance (official runner) against termhive serve", { skip }, () => {
  let s: Served;
  let out: string;
  let listed: string[] = [];
  let results = new Map<string, Check[]>();
  const runLog: string[] = [];
  let runner: Runner;

  before(async () => {
    runner = pinnedRunner("@modelcontextprotocol/conformance");
    const list = await runner.run(["list", "--server"], 30_000);
    listed = [...list.out.matchAll(/^\s+- (\S+) \[/gm)].map((m) => m[1]!);
    assert.ok(listed.length > 0, `conformance list printed no scenarios:\n${list.out}`);

    // Its CLI sends no Authorization header: auth off, which serve allows on loopback only.
    s = await serve(["--auth", "off", "--no-grpc-tcp"]);
    out = mkdtempSync(join(tmpdir(), "termhive-conformance-"));
    const r = await runner.run(["server", "--url", s.url, "--suite", "all", "--output-dir", out], 80_000);
    runLog.push(r.out);
    results = resultsIn(out);
  });

  after(async () => {
    await s?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  test("every server scenario of the runner is decided (applies or not, with a reason)", () => {
    const decided = new Set([...APPLIES, ...Object.keys(DOES_NOT_APPLY)]);
    assert.deepEqual(listed.filter((n) => !decided.has(n)), [], "new scenarios: add them to APPLIES or DOES_NOT_APPLY");
    assert.deepEqual([...decided].filter((n) => !listed.includes(n)), [], "scenarios the runner no longer has");
  });

  for (const scenario of APPLIES) {
    test(scenario, () => {
      const checks = results.get(scenario);
      assert.ok(checks, `no result for ${scenario}; runner output:\n${runLog.join("\n").slice(-4000)}\nserver stderr:\n${s?.stderr()}`);
      const failed = checks.filter((c) => c.status === "FAILURE").map((c) => `${c.id}: ${c.errorMessage ?? c.description}`);
      assert.deepEqual(failed, []);
      // A scenario that only warned did not show anything works.
      assert.ok(checks.some((c) => c.status === "SUCCESS"), `${scenario} had no successful check: ${JSON.stringify(checks)}`);
    });
  }
});
