// The composition root ends its parts in the one order written in ROOT_ENDING_ORDER, once,
// and the backend last of all (after the recordings and the run ends).
import { test } from "node:test";
import assert from "node:assert/strict";
import { PtyBackend } from "../../../src/backends/pty/pty-backend.js";
import { loadConfig } from "../../../src/config.js";
import { Hive, ProfileRegistry } from "../../../src/hive/index.js";
import { Crew } from "../../../src/hive/live/crew.js";
import { IdleCloser } from "../../../src/hive/live/idle-closer.js";
import { composeRoot, ROOT_ENDING_ORDER } from "../../../src/service/root.js";
import { TermhiveService } from "../../../src/service/service.js";
import { removeTempFolder, tempFolder } from "../../temp-folder.js";

test("the root ends the idle closer, the crew, the terminal and then the backend, in ROOT_ENDING_ORDER, once", async (t) => {
  const home = tempFolder("termhive-root-");
  t.after(() => removeTempFolder(home));
  const config = loadConfig({ TERMHIVE_HOME: home, TERMHIVE_SHELL: "/bin/bash", HOME: home, PATH: process.env.PATH, TERMHIVE_IDLE_CLOSE_S: "60" });
  const ended: string[] = [];
  const heard = (target: object, method: string, name: string) => {
    const methods = target as Record<string, (...args: unknown[]) => unknown>;
    const original = methods[method]!;
    t.mock.method(methods, method, function (this: unknown, ...args: unknown[]) {
      ended.push(name);
      return original.apply(this, args);
    });
  };
  heard(IdleCloser.prototype, "dispose", "idle closer");
  heard(Crew.prototype, "dispose", "crew");
  heard(TermhiveService.prototype, "dispose", "terminal");
  const backend = new PtyBackend();
  heard(backend, "stop", "backend");
  const root = composeRoot(config, { backend, openHive: () => Hive.open({ home, profiles: new ProfileRegistry() }) });
  void root.crew.hive; // the crew's parts (tracker, scanner, outbox, SQLite) are open and end with it
  const first = root.dispose();
  assert.equal(root.dispose(), first);
  await first;
  await root.dispose();
  // The recording notices end too, through a closure a test cannot hear (the iTerm2 tabs end with the crew's displays).
  const heardParts = ROOT_ENDING_ORDER.filter((name) => name !== "recording notices");
  assert.deepEqual(ended, [...heardParts, "backend"]);
});
