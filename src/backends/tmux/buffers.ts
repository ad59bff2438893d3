// Small files on the tmux server's host, read and written by the server itself through a
// paste buffer (for a server on another host: files there, with no second ssh connection).
// The three commands of a call are sent together and run in order, so the buffer is always
// that call's own.
import { tmuxQuote, tmuxQuoteFormat } from "./quote.js";
import type { HostAsk } from "../backend.js";

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

/** A request buffer of a host pane's `termhive` (src/shell/cli/termhive): termhive-ask-<pane>-<pid>-<time>. */

const ASK_BUFFER = /^termhive-ask-(\d+)-\d+-\d+$/;
/** Requests taken in one pass; the rest wait for the next (a pane can leave them faster than any pass). */
export const ASKS_PER_PASS = 50;

/**
 * The waiting requests, oldest first, each taken by this process alone: renamed first (a
 * second termhive process following the same host, or a program that named a buffer so,
 * loses the race and skips it), then read and deleted. A buffer over `maxBytes` is deleted
 * unread. `more`: requests are left for another pass.
 */
export async function takeAsks(tmux: Tmux, maxBytes: number): Promise<{ asks: HostAsk[]; more: boolean }> {
  // tmux lists its buffers newest first, and buffer_created is in whole seconds: reversed, the
  // listing is oldest first within a second too (a pane's Stop hook after its
  // UserPromptSubmit in the same second was applied before it, leaving the agent working).
  const listed = (await tmux(`list-buffers -F '#{buffer_created} #{buffer_size} #{buffer_name}'`))
    .map((line) => line.split(" "))
    .filter(([, , name]) => name !== undefined && ASK_BUFFER.test(name))
    .reverse()
    .sort((a, b) => Number(a[0]) - Number(b[0]));
  const taking = listed.slice(0, ASKS_PER_PASS).map(async ([, size, name]) => {
    const taken = `termhive-taken-${process.pid}-${++bufferCount}`;
    const bytes = Number(size);
    const over = !(bytes <= maxBytes);
    const steps = [tmux(`set-buffer -b ${tmuxQuote(name!)} -n ${taken}`), over ? null : tmux(`show-buffer -b ${taken}`), tmux(`delete-buffer -b ${taken}`)];
    const [renamed, shown] = await Promise.allSettled(steps.map((s) => s ?? Promise.resolve([])));
    if (renamed!.status === "rejected") return null; // taken by another
    const text = over || shown!.status !== "fulfilled" ? null : shown!.value.join("\n");
    return { name: name!, paneId: `%${ASK_BUFFER.exec(name!)![1]}`, text, bytes };
  });
  const asks = (await Promise.all(taking)).filter((a): a is HostAsk => a !== null);
  return { asks, more: listed.length > ASKS_PER_PASS };
}

/** Text in tmux's double quotes: every byte as it is (newlines and control bytes as escapes, no $ expanded). */
function tmuxQuoteAny(text: string): string {
  const escaped = text.replace(/[\\"$]/g, "\\$&").replace(/[\x00-\x1f\x7f]/g, (c) => (c === "\n" ? "\\n" : `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`));
  return `"${escaped}"`;
}

/** Reply chunks: a tmux command line stays short, whatever a reply holds. */
const REPLY_CHUNK = 32 * 1024;

/** Answers a request: its exit code, stdout and stderr in reply buffers, then the channel its script waits on. */
export async function answerAsk(tmux: Tmux, ask: string, reply: { code: number; stdout: string; stderr: string }): Promise<void> {
  const name = ask.replace(/^termhive-ask-/, "termhive-reply-");
  const steps = [tmux(`set-buffer -b ${tmuxQuote(name)} ${reply.code}`)];
  for (const [suffix, text] of [["-out", reply.stdout], ["-err", reply.stderr]] as const) {
    for (let at = 0, first = true; at < text.length; first = false) {
      // Never between the two halves of a surrogate pair.
      let end = Math.min(text.length, at + REPLY_CHUNK);
      if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
      steps.push(tmux(`set-buffer ${first ? "" : "-a "}-b ${tmuxQuote(name + suffix)} ${tmuxQuoteAny(text.slice(at, end))}`));
      at = end;
    }
  }
  steps.push(tmux(`wait-for -S ${tmuxQuote(name)}`));
  await Promise.all(steps);
  // The script reads its answer the moment the signal comes, and removes it; one whose script
  // gave up waiting (no server was there in time) would stay in the host's tmux for good.
  const names = [name, `${name}-out`, `${name}-err`];
  setTimeout(() => void Promise.allSettled(names.map((b) => tmux(`delete-buffer -b ${tmuxQuote(b)}`))), ANSWER_KEPT_MS).unref();
}

/** How long an answer is left for its script to read. */
const ANSWER_KEPT_MS = 60_000;

/** A reply or taken buffer older than this, by the host's own clock, has nobody left to read it. */
export const LEFTOVER_S = (2 * ANSWER_KEPT_MS) / 1000;

/**
 * Removes what a termhive that died mid-request left in the host's tmux: a request it had taken
 * (renamed termhive-taken-*, read and deleted in one batch, so one left means the link or the
 * process went in between) and answers whose deletion timer died with it (termhive-reply-*).
 * Age is judged by the host's clock (a buffer made in the same batch says what time it is there),
 * so a clock that differs from this machine's cannot remove another live process's buffers.
 * Requests (termhive-ask-*) stay: they are the next server's to take. Returns how many went.
 */
export async function sweepLeftovers(tmux: Tmux, olderThanS = LEFTOVER_S): Promise<number> {
  const now = `termhive-now-${process.pid}-${++bufferCount}`;
  const [, listed] = await Promise.allSettled([
    tmux(`set-buffer -b ${now} .`),
    tmux(`list-buffers -F '#{buffer_created} #{buffer_name}'`),
    tmux(`delete-buffer -b ${now}`),
  ]);
  if (listed!.status !== "fulfilled") return 0;
  const rows = listed!.value.map((line) => line.split(" "));
  const hostNow = Number(rows.find(([, name]) => name === now)?.[0]);
  if (!Number.isFinite(hostNow)) return 0;
  const stale = rows
    .filter(([at, name]) => name !== undefined && /^termhive-(taken|reply)-/.test(name) && hostNow - Number(at) > olderThanS)
    .map(([, name]) => name!);
  const gone = await Promise.allSettled(stale.map((name) => tmux(`delete-buffer -b ${tmuxQuote(name)}`)));
  return gone.filter((g) => g.status === "fulfilled").length;
}
