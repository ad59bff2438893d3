// Issue 23: the real Claude Code under the hive, termhive started by a plain client (the suite: real-claude-suite.ts).
import { test } from "node:test";
import { STARTED_BY } from "./real-agents.js";
import { missing, realClaudeSuite } from "./real-claude-suite.js";

realClaudeSuite(STARTED_BY[0]!);
if (missing) test(`real Claude Code tests skipped: ${missing}`, { skip: missing }, () => {});
