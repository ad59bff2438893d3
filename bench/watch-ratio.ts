// Issue 10 §6: how close termhive's gRPC WatchOutput comes to tmux's own speed. tmux's server
// is the ceiling (~14 MB/s of pane output on this machine), so the figure is a ratio. Each
// round floods twice on termhive's tmux server: once a pane of a tmux session of its own,
// followed by a bare `tmux -C` client that only decodes and counts %output, and once a
// termhive session, followed by a WatchOutput stream. The two cannot share one pane: tmux
// paces a pane to its slowest control client, and termhive's client follows every pane of
// its sessions, so a bare reader beside it measures termhive, not tmux. Each reader's MB/s is
// its bytes over its own first-to-last-byte time. Target: WatchOutput ≥ 85 % of the bare
// reader, and every flooded byte delivered.
import { spawn, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { TermhiveClient } from "../src/grpc/client.js";
import { benchHome, loadavg, median, round, rssMb, startServe, type Emit } from "./common.js";

const FLOOD_BYTES = Number(process.env.BENCH_WATCH_RATIO_MB ?? 32) * 1024 * 1024;
const ROUNDS = Number(process.env.BENCH_WATCH_RATIO_RUNS ?? 5);
const MARKER = Buffer.from("FLOOD-END");
const MB = 1024 * 1024;

/** The flood: FLOOD_BYTES of `~` in 99-byte lines, then the marker (typed with quotes, so its echo does not match). */
const FLOOD_COMMAND = `head -c ${FLOOD_BYTES} /dev/zero | tr '\\0' '\\176' | fold -w 99; echo FLOOD-E''ND`;
const TILDE = 0x7e;

/** One reader's view of a flood: bytes up to and including the marker, how many were `~`, and when they came. */
interface Reading { bytes: number; flood: number; first: number; last: number }

/** Counts bytes up to the marker across chunks (the marker may be split between two). */
class MarkerCounter {
  private bytes = 0;
  private flood = 0;
  private first = 0;
  private tail: Buffer = Buffer.alloc(0);
  private resolveDone!: (r: Reading) => void;
  readonly done = new Promise<Reading>((resolve) => (this.resolveDone = resolve));
  private finished = false;

  /** Feeds decoded bytes; returns true once the marker has been seen. */
  feed(data: Buffer): boolean {
    if (this.finished) return true;
    const now = performance.now();
    if (!this.first) this.first = now;
    const joined = this.tail.length ? Buffer.concat([this.tail, data]) : data;
    const at = joined.indexOf(MARKER);
    if (at >= 0) {
      const used = at + MARKER.length - this.tail.length;
      this.bytes += used;
      this.flood += tildes(data, used);
      this.finished = true;
      this.resolveDone({ bytes: this.bytes, flood: this.flood, first: this.first, last: now });
      return true;
    }
    this.bytes += data.length;
    this.flood += tildes(data, data.length);
    this.tail = joined.subarray(Math.max(0, joined.length - MARKER.length + 1));
    return false;
  }
}

function tildes(data: Buffer, end: number): number {
  let n = 0;
  for (let i = 0; i < end; i++) if (data[i] === TILDE) n++;
  return n;
}

/**
 * A bare control-mode client following one pane: the ceiling a tmux client can reach. It decodes
 * %output as tmux encodes it (bytes below 0x20 and `\` as `\ooo`, the rest verbatim).
 */
function bareReader(socket: string, target: string, paneId: string): { counter: MarkerCounter; attached: Promise<void>; stop(): void } {
  const counter = new MarkerCounter();
  const tmux = spawn("tmux", ["-S", socket, "-C", "attach-session", "-t", target], { stdio: ["pipe", "pipe", "ignore"] });
  const prefix = Buffer.from(`%output ${paneId} `);
  let attached!: () => void;
  const ready = new Promise<void>((resolve) => (attached = resolve));
  let pending: Buffer = Buffer.alloc(0);
  tmux.stdout!.on("data", (chunk: Buffer) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let start = 0;
    for (let nl = pending.indexOf(10, start); nl >= 0; nl = pending.indexOf(10, start)) {
      const line = pending.subarray(start, nl);
      start = nl + 1;
      if (line[0] === 0x25 && line.subarray(0, 4).toString() === "%end") attached();
      if (line.length >= prefix.length && line.subarray(0, prefix.length).equals(prefix)) counter.feed(decode(line.subarray(prefix.length)));
    }
    pending = pending.subarray(start);
  });
  return { counter, attached: ready, stop: () => { tmux.stdin!.end(); tmux.kill(); } };
}

function decode(escaped: Buffer): Buffer {
  if (escaped.indexOf(0x5c) < 0) return escaped;
  const out = Buffer.allocUnsafe(escaped.length);
  let n = 0;
  for (let i = 0; i < escaped.length; i++) {
    const c = escaped[i]!;
    if (c === 0x5c && i + 3 < escaped.length) {
      out[n++] = (escaped[i + 1]! - 48) * 64 + (escaped[i + 2]! - 48) * 8 + (escaped[i + 3]! - 48);
      i += 3;
    } else out[n++] = c;
  }
  return out.subarray(0, n);
}

/** A flood that never ends (a lost marker) fails the bench after 3 minutes instead of hanging it. */
async function withDeadline<T>(work: Promise<T>, giveUp: () => void): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => (timer = setTimeout(() => { giveUp(); reject(new Error("flood marker not seen within 180 s")); }, 180_000)));
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}

/** CPU time (user + system) a process has used, in seconds, from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rate(r: Reading): number {
  return r.bytes / MB / ((r.last - r.first) / 1000);
}

export async function benchWatchRatio(emit: Emit): Promise<void> {
  const h = benchHome();
  const serve = await startServe(h);
  const c = new TermhiveClient({ socketPath: serve.info.grpc_socket, clientName: "bench-watch-ratio" });
  try {
    await c.ready(5000);
    const opened = await c.open({ name: "flood", command: "bash" });
    await c.run({ session: "flood", command: "true" });
    // The bare reader's pane: a tmux session termhive never attached to, a shell without rc files.
    const socket = join(h.home, "tmux.sock");
    const made = spawnSync("tmux", ["-S", socket, "new-session", "-d", "-s", "bench-bare", "-x", "120", "-y", "40", "-P", "-F", "#{pane_id}", "--", "bash", "--norc", "--noprofile"], { encoding: "utf8" });
    const barePane = made.stdout.trim();
    if (made.status !== 0 || !barePane) throw new Error(`tmux new-session failed: ${made.stderr}`);
    const rows: { bare: number; watch: number; ratio: number; lost: number; bytes: number; cpu: number }[] = [];
    for (let round_ = 0; round_ < ROUNDS; round_++) {
      const bare = bareReader(socket, "bench-bare", barePane);
      await bare.attached;
      spawnSync("tmux", ["-S", socket, "send-keys", "-t", barePane, "-l", FLOOD_COMMAND]);
      spawnSync("tmux", ["-S", socket, "send-keys", "-t", barePane, "Enter"]);
      const b = await withDeadline(bare.counter.done, () => bare.stop());
      bare.stop();

      const cpuBefore = cpuSeconds(serve.proc.pid!);
      const watch = new MarkerCounter();
      const stream = c.watchOutput({ sessions: ["flood"] });
      const streamed = (async () => {
        for await (const chunk of stream) if (watch.feed(chunk.data)) break;
      })();
      // The stream is attached once the server answers a call issued after it (same channel, in order).
      await c.read({ session: "flood", mode: "screen" });
      await c.send({ session: "flood", text: FLOOD_COMMAND });
      const w = await withDeadline(watch.done, () => stream.cancel());
      stream.cancel();
      await streamed.catch(() => {});
      rows.push({ bare: rate(b), watch: rate(w), ratio: rate(w) / rate(b), lost: Math.max(FLOOD_BYTES - w.flood, b.flood - w.flood), bytes: w.bytes, cpu: cpuSeconds(serve.proc.pid!) - cpuBefore });
      // The prompt is back before the next round, so rounds don't overlap.
      await c.run({ session: "flood", command: "true" });
    }
    const ratio = median(rows.map((r) => r.ratio));
    emit({
      bench: "gRPC WatchOutput vs a bare tmux -C reader (same flood)", unit: "ratio", value: round(ratio), target: ">= 0.85",
      watch_mb_per_s: round(median(rows.map((r) => r.watch))), bare_mb_per_s: round(median(rows.map((r) => r.bare))),
      bytes_lost: Math.max(...rows.map((r) => r.lost)),
      // What a loaded machine does not blur: the server's own CPU time per flooded MB.
      server_cpu_ms_per_mb: round((median(rows.map((r) => r.cpu)) * 1000) / (FLOOD_BYTES / MB)), bytes_per_round: rows[0]?.bytes, rounds: rows.length,
      per_round: rows.map((r) => ({ watch: round(r.watch), bare: round(r.bare), ratio: round(r.ratio), lost: r.lost })),
      method: `${ROUNDS} rounds; each floods ${FLOOD_BYTES / MB} MB of ~ (head -c /dev/zero | tr | fold -w 99: 100-byte lines) then a marker, first into a tmux session of its own on termhive's socket read by a bare tmux -C attach (decoded %output bytes), then into a termhive bash session read by gRPC WatchOutput; MB/s = bytes up to the marker / that reader's first-to-last byte; value = median of per-round ratios; bytes_lost = max over rounds of flooded ~ bytes missing from the stream`,
      server_rss: rssMb(serve.proc.pid!), loadavg: loadavg(),
    });
  } finally {
    c.closeConnection();
    await serve.stop();
  }
}
