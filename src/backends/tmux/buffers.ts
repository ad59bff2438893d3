// Small files on the tmux server's host, read and written by the server itself through a
// paste buffer (for a server on another host: files there, with no second ssh connection).
// The three commands of a call are sent together and run in order, so the buffer is always
// that call's own.
import { tmuxQuote } from "./quote.js";

type Tmux = (command: string) => Promise<string[]>;

let bufferCount = 0;

/** The file's text, "" when it cannot be read. */
export async function readViaBuffer(tmux: Tmux, path: string): Promise<string> {
  const buffer = `termhive-read-${process.pid}-${++bufferCount}`;
  const load = tmux(`load-buffer -b ${buffer} ${tmuxQuote(path)}`);
  const show = tmux(`show-buffer -b ${buffer}`);
  const drop = tmux(`delete-buffer -b ${buffer}`);
  const [, lines] = await Promise.allSettled([load, show, drop]).then((r) => r.map((x) => (x.status === "fulfilled" ? x.value : null)));
  return lines ? lines.join("\n") : "";
}

export async function writeViaBuffer(tmux: Tmux, path: string, text: string): Promise<void> {
  const buffer = `termhive-write-${process.pid}-${++bufferCount}`;
  await Promise.all([
    tmux(`set-buffer -b ${buffer} ${tmuxQuote(text)}`),
    tmux(`save-buffer -b ${buffer} ${tmuxQuote(path)}`),
    tmux(`delete-buffer -b ${buffer}`),
  ]);
}
