// Issue 23: the real Codex CLI under the hive, termhive started by a plain client (the suite: real-codex-suite.ts).
import { test } from "node:test";
import { STARTED_BY } from "./real-agents.js";
import { missing, realCodexSuite } from "./real-codex-suite.js";

realCodexSuite(STARTED_BY[0]!);
if (missing) test(`real Codex CLI tests skipped: ${missing}`, { skip: missing }, () => {});
