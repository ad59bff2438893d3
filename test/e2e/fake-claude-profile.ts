// A profiles file (TERMHIVE_PROFILES, the JSON format) with "fakeclaude": the claude
// built-in's screen rules and hooks (through `extends`), running the fake assistant TUI
// (test/fixtures/fake-agent.mjs) since the real `claude` is not here.
import { writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { tempFolder } from "../temp-folder.js";

export const FAKE_AGENT = resolve("test/fixtures/fake-agent.mjs");

/** A profiles file with "fakeclaude": the claude built-in's rules and hooks, running the fake. */
export function writeFakeClaudeProfile(): string {
  const file = join(tempFolder("termhive-profiles-"), "profiles.json");
  writeFileSync(file, JSON.stringify({
    profiles: {
      fakeclaude: {
        extends: "claude",
        command: `${process.execPath} ${FAKE_AGENT}`,
      },
    },
  }));
  return file;
}

