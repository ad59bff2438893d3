// Test helpers: every test gets its own temp TERMHIVE_HOME with a real SQLite file.
import { Hive, ProfileRegistry, type HiveOptions } from "../../../src/hive/index.js";
import { removeTempFolder, tempFolder } from "../../temp-folder.js";

export function tempHome(): { home: string; cleanup: () => void } {
  const home = tempFolder("termhive-hive-");
  return { home, cleanup: () => removeTempFolder(home) };
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
