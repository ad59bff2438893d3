// A program found the way a shell finds it: the first executable of that name in PATH's folders.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";

/** The program's path in the first folder of `pathVar` that has it executable, or null. */
export function findOnPath(program: string, pathVar: string = process.env.PATH ?? ""): string | null {
  for (const dir of pathVar.split(delimiter)) {
    if (!dir) continue;
    const file = join(dir, program);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}
