// Issue 23: the real Claude Code under the hive, termhive started by Claude Code's MCP-server environment (the suite: real-claude-suite.ts).
import { test } from "node:test";
import { STARTED_BY } from "./real-agents.js";
import { missing, realClaudeSuite } from "./real-claude-suite.js";

realClaudeSuite(STARTED_BY[1]!);
if (missing) test(`real Claude Code tests skipped: ${missing}`, { skip: missing }, () => {});
