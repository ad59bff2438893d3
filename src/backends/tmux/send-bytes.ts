// Input bytes into a pane as `send-keys -H` commands: exact bytes whatever they are (no key
// names, no UTF-8 reinterpretation), in chunks that keep each command line short.
import { tmuxQuote } from "./quote.js";

/** tmux command lines stay short; 2 KiB of input is 6 KiB of hex. */
const HEX_CHUNK = 2048;
/**
 * At most this many chunks queued at a time (tmux runs them in order): the control client's
 * queue is shared by every session, and 1 MB queued at once (~500 commands) made another
 * session's echo wait ~14 s behind the paste.
 */
const SEND_WINDOW = 4;

export async function sendBytes(tmux: (command: string) => Promise<string[]>, paneId: string, data: Buffer): Promise<void> {
  const target = tmuxQuote(paneId);
  const inFlight = new Set<Promise<string[]>>();
  for (let offset = 0; offset < data.length; offset += HEX_CHUNK) {
    const chunk = data.subarray(offset, offset + HEX_CHUNK);
    const hex = Array.from(chunk, (b) => b.toString(16).padStart(2, "0")).join(" ");
    const sent = tmux(`send-keys -H -t ${target} ${hex}`);
    inFlight.add(sent);
    void sent.then(() => inFlight.delete(sent), () => inFlight.delete(sent));
    if (inFlight.size >= SEND_WINDOW) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
}
