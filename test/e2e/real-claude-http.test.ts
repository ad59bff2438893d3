// The real Claude Code 2.1.332 (pinned in scripts/agents) as an HTTP MCP client of
// `termhive serve` (issue 34 §1): its default connect probes `server/discover` first, so with
// TERMHIVE_MCP_ERA=2026 (2025 refused) it can only connect in 2026-07-28; with 2025 it must
// fall back to `initialize`; with both it connects as it chooses. Its own health check
// (`claude mcp list`, no model involved) says whether it connected. A private HOME holds the
// registration, so nothing of the machine's own settings is used.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { AGENTS_BIN, missingAgent } from "./real-agents.js";
import { serve } from "./serve-process.js";
import { removeTempFolder, tempFolder } from "../temp-folder.js";

const skip = missingAgent("claude") ?? false;

function claude(home: string, args: string[]): { status: number | null; out: string } {
  const r = spawnSync(join(AGENTS_BIN, "claude"), args, { cwd: home, encoding: "utf8", timeout: 120_000, env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(home, "home") } });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

describe("the real Claude Code over HTTP, in each TERMHIVE_MCP_ERA", { skip }, () => {
  for (const era of ["2026", "2025", "both"]) {
    test(`TERMHIVE_MCP_ERA=${era}: claude mcp list reports termhive connected`, async () => {
      const s = await serve(["--no-grpc-tcp"], undefined, { TERMHIVE_MCP_ERA: era });
      const home = tempFolder("termhive-claude-http-");
      try {
        mkdirSync(join(home, "home"));
        const added = claude(home, ["mcp", "add", "--transport", "http", "termhive", s.url, "--header", `Authorization: Bearer ${s.token}`]);
        assert.equal(added.status, 0, added.out);
        const listed = claude(home, ["mcp", "list"]);
        assert.match(listed.out, /termhive: \S+ \(HTTP\) - ✔ Connected/, `${listed.out}\nserver stderr:\n${s.stderr()}`);
      } finally {
        removeTempFolder(home);
        await s.stop();
      }
    });
  }

  test("a wrong token is not connected (the check can fail)", async () => {
    const s = await serve(["--no-grpc-tcp"]);
    const home = tempFolder("termhive-claude-http-");
    try {
      mkdirSync(join(home, "home"));
      assert.equal(claude(home, ["mcp", "add", "--transport", "http", "termhive", s.url, "--header", "Authorization: Bearer wrong"]).status, 0);
      assert.doesNotMatch(claude(home, ["mcp", "list"]).out, /✔ Connected/);
    } finally {
      removeTempFolder(home);
      await s.stop();
    }
  });
});
