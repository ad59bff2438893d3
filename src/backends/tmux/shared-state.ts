// Shared state kept in tmux user options (pane or global). The tmux server runs one command at
// a time, so a `set -F` whose value is the format "new if it still holds expected, else what it
// holds" is a compare-and-set across every attached process. (Not if-shell: its inner command
// adds a second reply block, which would misalign replies.)
import type { SharedState } from "../backend.js";
import { checkSharedValue, sharedOption, sharedScope, sharedTarget } from "./pane-format.js";
import { tmuxQuote } from "./quote.js";

export function tmuxSharedState(tmux: (command: string) => Promise<string[]>): SharedState {
  const readShared = async (paneId: string | null, key: string): Promise<string> => {
    const [value] = await tmux(`display-message -p ${sharedTarget(paneId)} ${tmuxQuote(`#{${sharedOption(key)}}`)}`);
    return (value ?? "").trim();
  };
  return {
    readShared,
    async writeShared(paneId, key, value) {
      checkSharedValue(value);
      await tmux(`set ${sharedScope(paneId)} ${sharedOption(key)} ${tmuxQuote(value)}`);
    },
    async swapShared(paneId, key, expected, next) {
      checkSharedValue(expected);
      checkSharedValue(next);
      const current = `#{${sharedOption(key)}}`;
      const format = `#{?#{==:${current},${expected}},${next},${current}}`;
      // Both at once: tmux runs one client's commands in order, so the read sees the swap.
      const [, value] = await Promise.all([
        tmux(`set -F ${sharedScope(paneId)} ${sharedOption(key)} ${tmuxQuote(format)}`),
        readShared(paneId, key),
      ]);
      return value;
    },
  };
}
