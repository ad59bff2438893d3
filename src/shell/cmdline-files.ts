// bash's integration keeps one small file per shell, `.termhive-cmdline.<pid>` in the shell
// state directory, to hand each command line from `history` to its OSC 633;E (see
// bash/termhive.bash §4). The shell empties it after each read but cannot remove it when it
// exits without taking over the user's EXIT trap; so files of shells that are gone are
// removed here, each time a bash session starts.
import { readdirSync, unlinkSync } from "node:fs";
import { join } from "node:path";
import { processAlive } from "../util/process.js";

const PATTERN = /^\.termhive-cmdline\.(\d+)$/;

export function removeStaleCommandLineFiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return; // no state dir yet
  }
  for (const name of names) {
    const pid = Number(PATTERN.exec(name)?.[1]);
    if (!pid || processAlive(pid)) continue;
    try {
      unlinkSync(join(dir, name));
    } catch {
      // removed by another termhive process meanwhile
    }
  }
}
