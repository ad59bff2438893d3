// A hive message (hive_send, hive_message) is typed into each agent's input line, and the
// program reads it at its own pace: a shell's line editor took ~4 s for 16 KB to three agents
// and minutes for 1 MB, so a call with a large text gave no answer within a client's timeout.
// The bound is checked before anything is typed or queued: a refusal delivers nothing to anyone.
import { HiveError } from "../store/errors.js";

export const MESSAGE_MAX_BYTES = 64 * 1024;

export function checkMessageSize(text: string, what: string): void {
  const bytes = Buffer.byteLength(text);
  if (bytes > MESSAGE_MAX_BYTES) {
    throw new HiveError(
      "invalid",
      `${what} is ${bytes} bytes; a hive message is at most ${MESSAGE_MAX_BYTES} bytes (64 KB), since it is typed into each agent's input line. Nothing was sent or queued. Write longer text to a file and send its path.`,
    );
  }
}
