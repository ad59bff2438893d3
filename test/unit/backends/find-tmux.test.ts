// tmux is found where clients with a short PATH (GUI apps, systemd, cron) cannot see it.
import { test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { findTmux, tmuxMissingMessage, USUAL_TMUX_DIRS } from "../../../src/backends/find-tmux.js";
import { tempFolder } from "../../temp-folder.js";

const installed = USUAL_TMUX_DIRS.map((dir) => join(dir, "tmux")).find((file) => existsSync(file));

test("a PATH without tmux's folder still finds the installed tmux in the usual places", { skip: installed ? false : "no tmux installed in the usual places" }, () => {
  const empty = tempFolder("termhive-path-");
  assert.equal(findTmux("tmux", empty), installed);
});

test("PATH comes first; an explicit path is taken as given or not at all", () => {
  assert.equal(findTmux("/nonexistent/tmux", process.env.PATH), null);
  if (installed) assert.equal(findTmux(installed, ""), installed);
  assert.equal(findTmux("no-such-program-termhive", ""), null);
});

test("the missing-tmux message says where it looked and how to install", () => {
  const message = tmuxMissingMessage("tmux");
  for (const dir of ["/opt/homebrew/bin", "/usr/local/bin"]) assert.ok(message.includes(dir), message);
  assert.match(message, /install it \((apt-get install -y|brew install) tmux\)/);
  assert.match(tmuxMissingMessage("/x/tmux"), /looked for "\/x\/tmux" in \/x\/tmux/);
});
