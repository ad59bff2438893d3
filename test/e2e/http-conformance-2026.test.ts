// The official MCP conformance runner for 2026-07-28 (conformance-2026 in scripts/conformance,
// `--requirements 2026-07-28`: the frozen set the revision requires, plus the extension and
// pending scenarios it runs without scoring) against a real `termhive serve`, beside the
// 0.1.16 run for 2025 (http-conformance.test.ts). Each server scenario is decided here:
// applies (must pass) or does not apply, with the reason (docs/conformance.md has the table).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve, type Served } from "./serve-process.js";
import { pinnedRunner, resultsIn, type Check, type Runner } from "./conformance-runner.js";

/** Scenarios of protocol behaviour every 2026 server has; termhive must pass every check. */
const APPLIES = [
  "server-stateless",
  "tools-list",
  "resources-list",
  "prompts-list",
  "server-sse-multiple-streams",
  "dns-rebinding-protection",
  "caching",
  "sep-2164-resource-not-found",
  "input-required-result-unsupported-methods",
  // pending (run, not scored), and it applies: Mcp-Method / Mcp-Name header checks on tools/list and a real tool name.
  "http-header-validation",
];

/**
 * Checks of an applying scenario that need a diagnostic fixture tool termhive does not have:
 * the runner reports them as failures ("Not testable"), so they are named here with why.
 */
const FIXTURE_CHECKS: Record<string, string> = {
  "sep-2575-server-rejects-undeclared-capability": "needs the diagnostic tool test_missing_capability (a tool that requires a client capability); termhive's tools require none",
  "sep-2575-missing-capability-http-400": "the same diagnostic tool test_missing_capability",
  "sep-2575-http-server-no-independent-requests-on-stream": "needs test_streaming_elicitation; termhive sends no server-to-client request on a 2026 stream",
  "sep-2575-server-no-log-without-loglevel": "needs test_logging_tool; termhive's tools send no log notifications",
};

const FIXTURE = "calls a fixture the runner's reference server defines, which termhive does not have";
const DOES_NOT_APPLY: Record<string, string> = {
  "completion-complete": `${FIXTURE} (prompt test_prompt_with_arguments); termhive's prompts offer no completions`,
  "tools-call-simple-text": `${FIXTURE} (tool test_simple_text)`,
  "tools-call-image": `${FIXTURE} (tool test_image_content); termhive returns text`,
  "tools-call-audio": `${FIXTURE} (tool test_audio_content); termhive returns text`,
  "tools-call-embedded-resource": `${FIXTURE} (tool test_embedded_resource)`,
  "tools-call-mixed-content": `${FIXTURE} (tool test_multiple_content_types)`,
  "tools-call-error": `${FIXTURE} (tool test_error_handling)`,
  "tools-call-with-progress": `${FIXTURE} (tool test_tool_with_progress; termhive's progress has its own e2e tests)`,
  "resources-read-text": `${FIXTURE} (resource test://static-text)`,
  "resources-read-binary": `${FIXTURE} (resource test://static-binary)`,
  "resources-templates-read": `${FIXTURE} (template test://template/{id}/data)`,
  "prompts-get-simple": `${FIXTURE} (prompt test_simple_prompt)`,
  "prompts-get-with-args": `${FIXTURE} (prompt test_prompt_with_arguments)`,
  "prompts-get-embedded-resource": `${FIXTURE} (prompt test_prompt_with_embedded_resource)`,
  "prompts-get-with-image": `${FIXTURE} (prompt test_prompt_with_image)`,
  "input-required-result-basic-elicitation": `${FIXTURE} (tool test_input_required_result_elicitation)`,
  "input-required-result-basic-sampling": `${FIXTURE} (tool test_input_required_result_sampling); termhive never samples`,
  "input-required-result-basic-list-roots": `${FIXTURE} (tool test_input_required_result_list_roots); termhive never asks for roots`,
  "input-required-result-request-state": `${FIXTURE} (tool test_input_required_result_request_state)`,
  "input-required-result-multiple-input-requests": `${FIXTURE} (tool test_input_required_result_multiple_inputs)`,
  "input-required-result-multi-round": `${FIXTURE} (tool test_input_required_result_multi_round)`,
  "input-required-result-missing-input-response": `${FIXTURE} (tool test_input_required_result_elicitation; passes only because the unknown tool is refused)`,
  "input-required-result-non-tool-request": `${FIXTURE} (prompt test_input_required_result_prompt)`,
  "input-required-result-result-type": `${FIXTURE} (tool test_input_required_result_elicitation)`,
  "input-required-result-tampered-state": `${FIXTURE} (tool test_input_required_result_tampered_state)`,
  "input-required-result-capability-check": `${FIXTURE} (tool test_input_required_result_capabilities)`,
  "input-required-result-ignore-extra-params": `${FIXTURE} (tool test_input_required_result_elicitation)`,
  "input-required-result-validate-input": `${FIXTURE} (tool test_input_required_result_elicitation; passes only because the unknown tool is refused)`,
  "tasks-lifecycle": "Tasks extension (not scored); termhive does not offer it (fixtures greet, slow_compute…)",
  "tasks-capability-negotiation": "Tasks extension (not scored); termhive does not offer it",
  "tasks-wire-fields": "Tasks extension (not scored); termhive does not offer it",
  "tasks-request-state-removal": "Tasks extension (not scored); termhive does not offer it",
  "tasks-mrtr-input": "Tasks extension (not scored); termhive does not offer it",
  "tasks-request-headers": "Tasks extension (not scored); termhive does not offer it",
  "tasks-dispatch-and-envelope": "Tasks extension (not scored); termhive does not offer it",
  "tasks-status-notifications": "Tasks extension (not scored); termhive does not offer it",
  "tasks-required-task-error": "Tasks extension (not scored); termhive does not offer it",
  "tasks-mrtr-composition": "Tasks extension (not scored); termhive does not offer it",
  "json-schema-2020-12": `pending (not scored); ${FIXTURE} (tool json_schema_2020_12_tool)`,
  "http-custom-header-server-validation": "pending (not scored); needs a tool with x-mcp-header parameters (SEP-2243), which termhive's tools have none of",
};

const skip = process.env.TERMHIVE_SKIP_CONFORMANCE === "1" ? "TERMHIVE_SKIP_CONFORMANCE=1" : false;

/** The server scenarios `list --requirements` names: scored ones, then the ones only run ([server]). */
function serverScenarios(listing: string): string[] {
  const scored = listing.split(/^Server scenarios.*$/m)[1]?.split(/^Client scenarios/m)[0] ?? "";
  return [...[...scored.matchAll(/^\s+- (\S+)\s*$/gm)].map((m) => m[1]!), ...[...listing.matchAll(/^\s+- (\S+) \[server\]/gm)].map((m) => m[1]!)];
}

describe("MCP 2026-07-28 conformance (official runner) against termhive serve", { skip }, () => {
  let s: Served;
  let out: string;
  let listed: string[] = [];
  let results = new Map<string, Check[]>();
  const runLog: string[] = [];
  let runner: Runner;

  before(async () => {
    runner = pinnedRunner("conformance-2026");
    const list = await runner.run(["list", "--server", "--requirements", "2026-07-28"], 30_000);
    listed = serverScenarios(list.out);
    assert.ok(listed.length > 0, `conformance list printed no scenarios:\n${list.out}`);
    // Its CLI sends no Authorization header: auth off, which serve allows on loopback only.
    s = await serve(["--auth", "off", "--no-grpc-tcp"]);
    out = mkdtempSync(join(tmpdir(), "termhive-conformance-2026-"));
    const r = await runner.run(["server", "--url", s.url, "--requirements", "2026-07-28", "--output-dir", out], 120_000);
    runLog.push(r.out);
    results = resultsIn(out);
  });

  after(async () => {
    await s?.stop();
    if (out) rmSync(out, { recursive: true, force: true });
  });

  test("every server scenario of the 2026 requirements is decided (applies or not, with a reason)", () => {
    const decided = new Set([...APPLIES, ...Object.keys(DOES_NOT_APPLY)]);
    assert.deepEqual(listed.filter((n) => !decided.has(n)), [], "new scenarios: add them to APPLIES or DOES_NOT_APPLY");
    assert.deepEqual([...decided].filter((n) => !listed.includes(n)), [], "scenarios the runner no longer has");
  });

  for (const scenario of APPLIES) {
    test(scenario, () => {
      const checks = results.get(scenario);
      assert.ok(checks, `no result for ${scenario}; runner output:\n${runLog.join("\n").slice(-4000)}\nserver stderr:\n${s?.stderr()}`);
      const failed = checks.filter((c) => c.status === "FAILURE" && !(c.id in FIXTURE_CHECKS)).map((c) => `${c.id}: ${c.errorMessage ?? c.description}`);
      assert.deepEqual(failed, []);
      // A fixture check that starts passing (or vanishes) is looked at again, not silently kept here.
      for (const c of checks.filter((c) => c.id in FIXTURE_CHECKS)) assert.match(c.errorMessage ?? "", /^Not testable/, `${c.id} ${c.status}: ${c.errorMessage}`);
      assert.ok(checks.some((c) => c.status === "SUCCESS"), `${scenario} had no successful check: ${JSON.stringify(checks)}`);
    });
  }
});
