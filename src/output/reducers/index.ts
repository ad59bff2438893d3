import type { Line } from "../line.js";
import type { Reducer } from "./types.js";
import { candidateCommands } from "./command.js";
import { cargo } from "./cargo.js";
import { compiler } from "./compiler.js";
import { dockerBuild } from "./docker-build.js";
import { eslint } from "./eslint.js";
import { gitDiff } from "./git-diff.js";
import { gitLog } from "./git-log.js";
import { gitStatus } from "./git-status.js";
import { goTest } from "./go-test.js";
import { grep } from "./grep.js";
import { jest } from "./jest.js";
import { lsLong } from "./ls-long.js";
import { nodeTest } from "./node-test.js";
import { packageInstall } from "./package-install.js";
import { pipInstall } from "./pip-install.js";
import { pytest } from "./pytest.js";
import { tsc } from "./tsc.js";

export type { Reducer } from "./types.js";

/**
 * Every reducer, one line each (a new reducer is a new file and one line here). Order
 * matters only for shape detection: the more specific shapes come first.
 */
export const REDUCERS: readonly Reducer[] = [
  gitStatus,
  gitLog,
  gitDiff,
  pytest,
  jest,
  nodeTest,
  goTest,
  cargo,
  tsc,
  eslint,
  packageInstall,
  pipInstall,
  dockerBuild,
  compiler,
  lsLong,
  grep,
];

/**
 * The reducer for this output: the first whose command pattern matches one of the simple
 * commands of the command line (see command.ts); otherwise the first whose shape check
 * recognises the output; otherwise none.
 */
export function selectReducer(command: string | undefined, lines: readonly Line[]): Reducer | undefined {
  if (command) {
    for (const candidate of candidateCommands(command)) {
      const byCommand = REDUCERS.find((reducer) => reducer.command.test(candidate));
      if (byCommand) return byCommand;
    }
  }
  return REDUCERS.find((reducer) => reducer.shape?.(lines) ?? false);
}
