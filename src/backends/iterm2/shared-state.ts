// Shared state in iTerm2 session variables (a pane's) or app variables (the server's, null).
// iTerm2 has no compare-and-set on variables: a swap is atomic among this process's callers only.
import type { SharedState } from "../backend.js";
import type { Iterm2Client } from "../../iterm2/client.js";
import { sharedName, sharedScope } from "./session-vars.js";

export function iterm2SharedState(api: () => Iterm2Client): SharedState {
  let lock: Promise<unknown> = Promise.resolve();
  const readShared = async (paneId: string | null, key: string): Promise<string> => {
    const [value] = await api().getVariables(sharedScope(paneId), [sharedName(key)]);
    return typeof value === "string" ? value : "";
  };
  const writeShared = async (paneId: string | null, key: string, value: string): Promise<void> => {
    await api().setVariables(sharedScope(paneId), { [sharedName(key)]: value === "" ? null : value });
  };
  return {
    readShared,
    writeShared,
    swapShared(paneId, key, expected, next) {
      const run = async () => {
        const current = await readShared(paneId, key);
        if (current !== expected) return current;
        await writeShared(paneId, key, next);
        return next;
      };
      const result = lock.then(run, run);
      lock = result.catch(() => undefined);
      return result;
    },
  };
}
