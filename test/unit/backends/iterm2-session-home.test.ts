// Which iTerm2 sessions are one TERMHIVE_HOME's: the home recorded on a session and the home a
// termhive runs with are the same folder however each was spelled.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { HOME_KEY, ofHome, storedMeta } from "../../../src/backends/iterm2/session-vars.js";
import { tempFolder } from "../../temp-folder.js";

test("a home spelled with a trailing slash, through a symlink or with dot segments is the same home", () => {
  const root = tempFolder("th-iterm2-home-");
  const home = join(root, "home");
  mkdirSync(home);
  const link = join(root, "link");
  symlinkSync(home, link);
  const meta = storedMeta({ role: "shell" }, home);
  for (const spelling of [home, `${home}/`, link, `${link}/`, join(root, "x", "..", "home")]) {
    assert.equal(ofHome(meta, spelling, {}), true, spelling);
    assert.equal(ofHome(storedMeta({}, spelling), home, {}), true, `recorded as ${spelling}`);
  }
});

test("another home's sessions are not this home's, nor is a missing folder another's", () => {
  const root = tempFolder("th-iterm2-home-");
  mkdirSync(join(root, "a"));
  mkdirSync(join(root, "b"));
  assert.equal(ofHome(storedMeta({}, join(root, "a")), join(root, "b"), {}), false);
  assert.equal(ofHome(storedMeta({}, join(root, "gone")), join(root, "a"), {}), false);
  assert.equal(ofHome(storedMeta({}, join(root, "gone/")), join(root, "gone"), {}), true);
});

test("a session that recorded no home is the default home's, however TERMHIVE_HOME is spelled", () => {
  const root = tempFolder("th-iterm2-home-");
  const home = join(root, "home");
  mkdirSync(home);
  const link = join(root, "link");
  symlinkSync(home, link);
  const unrecorded = { role: "shell" };
  assert.equal(HOME_KEY in unrecorded, false);
  assert.equal(ofHome(unrecorded, home, { TERMHIVE_HOME: `${link}/` }), true);
  assert.equal(ofHome(unrecorded, `${home}/`, { TERMHIVE_HOME: home }), true);
  assert.equal(ofHome(unrecorded, join(root, "other"), { TERMHIVE_HOME: home }), false);
});
