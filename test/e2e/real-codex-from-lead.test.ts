// Issue 23: the real Codex CLI under the hive, termhive started by Claude Code's MCP-server environment (the suite: real-codex-suite.ts).
import { test } from "node:test";
import { STARTED_BY } from "./real-agents.js";
import { missing, realCodexSuite } from "./real-codex-suite.js";

realCodexSuite(STARTED_BY[1]!);
if (missing) test(`real Codex CLI tests skipped: ${missing}`, { skip: missing }, () => {});
