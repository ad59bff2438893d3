import { test } from "node:test";
import assert from "node:assert/strict";
import { ConfigError, loadConfig, parseToolFamilies } from "../../../src/config.js";

test("TERMHIVE_TOOLS: unset lists every family; a comma list picks; an unknown name is refused naming the valid ones", () => {
  assert.deepEqual(parseToolFamilies(undefined), ["terminal", "hive"]);
  assert.deepEqual(parseToolFamilies("terminal"), ["terminal"]);
  assert.deepEqual(parseToolFamilies(" Hive , terminal "), ["terminal", "hive"]);
  assert.throws(() => parseToolFamilies("terminals"), (e: Error) => e instanceof ConfigError && /terminal, hive/.test(e.message));
});

test("TERMHIVE_ELICIT: on by default, off turns asking off, anything else is refused", () => {
  assert.equal(loadConfig({}).elicit, true);
  assert.equal(loadConfig({ TERMHIVE_ELICIT: "off" }).elicit, false);
  assert.throws(() => loadConfig({ TERMHIVE_ELICIT: "maybe" }), ConfigError);
});

test("TERMHIVE_MCP_ERA: both by default; 2025 or 2026 forces one; anything else is refused", () => {
  assert.equal(loadConfig({}).mcpEra, "both");
  assert.equal(loadConfig({ TERMHIVE_MCP_ERA: "2025" }).mcpEra, "2025");
  assert.equal(loadConfig({ TERMHIVE_MCP_ERA: " 2026 " }).mcpEra, "2026");
  assert.equal(loadConfig({ TERMHIVE_MCP_ERA: "BOTH" }).mcpEra, "both");
  assert.throws(() => loadConfig({ TERMHIVE_MCP_ERA: "2024" }), /TERMHIVE_MCP_ERA="2024" is invalid: use both, 2025 or 2026/);
});
