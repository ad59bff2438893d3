// Test helpers: every test gets its own temp TERMHIVE_HOME with a real SQLite file.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Hive, ProfileRegistry, type HiveOptions } from "../../../src/hive/index.js";

export function tempHome(): { home: string; cleanup: () => void } {
  const home = mkdtempSync(join(tmpdir(), "termhive-hive-"));
  return { home, cleanup: () => rmSync(home, { recursive: true, force: true }) };
}

/** Opens a hive in a fresh temp home; `done()` closes it and removes the directory. */
export function openHive(options: HiveOptions = {}): { hive: Hive; home: string; done: () => void } {
  const { home, cleanup } = tempHome();
  const hive = Hive.open({ home, profiles: new ProfileRegistry(), ...options });
  return {
    hive,
    home,
    done: () => {
      hive.close();
      cleanup();
    },
  };
}
