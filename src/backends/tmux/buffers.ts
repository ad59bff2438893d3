// Small files on the tmux server's host, read and written by the server itself through a
// paste buffer (for a server on another host: files there, with no second ssh connection).
// The three commands of a call are sent together and run in order, so the buffer is always
// that call's own.
import { tmuxQuote, tmuxQuoteFormat } from "./quote.js";

type Tmux = (command: string) => Promise<string[]>;

let bufferCount = 0;

/**
 * The file's text, "" when it cannot be read or holds more than `maxBytes`. A file a sandboxed
 * pane can write (a shell's status file) is read as untrusted: never more than the bound is
 * loaded (load-buffer alone reads a file whole), never through a link, never a FIFO; one found
 * over the bound is emptied on the disk. The loader is run-shell's own child: the server waits
 * for it before the next command, and TMUX in its environment names this server.
 */
export async function readViaBuffer(tmux: Tmux, path: string, maxBytes: number): Promise<string> {
  const buffer = `termhive-read-${process.pid}-${++bufferCount}`;
  const script = `f=${tmuxQuote(path)}; [ -f "$f" ] && [ ! -h "$f" ] || exit 0; if [ "$(wc -c <"$f")" -gt ${maxBytes} ]; then : >"$f"; else head -c ${maxBytes} -- "$f" | tmux load-buffer -b ${buffer} -; fi`;
  const load = tmux(`run-shell ${tmuxQuoteFormat(script)}`);
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
