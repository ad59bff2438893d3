// The hive from inside a sandbox. A sandboxed pane cannot reach TERMHIVE_HOME: its
// sockets and token would open an unsandboxed pane, and a bind mount of the SQLite store is not
// safe (a WAL file the host deletes and re-creates is no longer the one bound inside: writes
// lost, locks not shared). So the in-pane `termhive msg / status / hook` leave a request file in
// the pane's own relay folder <home>/relay/<session> (the one path of TERMHIVE_HOME it may write),
// and the termhive server that follows the pane's agent applies it, as that agent: a sandboxed
// agent can send and report only as itself.
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, opendirSync, openSync, readSync, readdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { ToolError } from "../util/tool-error.js";
import { entryAt, openFolder, removeEntry, removeFolder, type RemovalBudget } from "./safe-remove.js";

/** Set in a sandboxed pane: its relay folder. The in-pane `termhive` writes requests there. */
export const RELAY_ENV = "TERMHIVE_RELAY";

// The relay folder is the one place of the host's disk a `read`-only sandbox can write, so it is
// bounded (docs/limits.md). A request is a message (at most 64 KiB of text, JSON-escaped), a
// status or a hook's report: a few hundred bytes. Pending requests pile up only while no termhive
// server follows the pane; an agent's hooks leave a few per turn, so 1000 is hours of work.
/** One request file, at most. */
export const RELAY_MAX_REQUEST_BYTES = 256 * 1024;
/** Requests waiting in one pane's folder, at most; and their bytes. */
export const RELAY_MAX_PENDING = 1000;
export const RELAY_MAX_PENDING_BYTES = 8 * 1024 * 1024;
/**
 * One pass over a folder reads at most this many names and visits at most this many entries
 * removing what is not a request; the rest waits for the next pass. A program can fill the
 * folder faster than any pass empties it: a pass still ends. Far above what the in-pane
 * `termhive` leaves (1000 requests at most).
 */
const PASS_NAMES = 2_000;
const PASS_ENTRIES = 2_000;
/** A half-written request (.tmp) or a taken one (.taken) older than this is left over from a killed process. */
const LEFTOVER_MS = 60_000;

export type RelayRequest =
  | { kind: "msg"; to: string; text: string }
  | { kind: "status"; args: string[] }
  | { kind: "hook"; event: string; status: string; detail: string | null; endsTurn: boolean; firedAt: number; channel?: "hooks" | "notify"; promptDigest?: string };

export function relayDir(home: string, sessionId: string): string {
  return join(home, "relay", sessionId);
}

/** Makes the pane's relay folder (owner-only) before the pane starts; bwrap binds existing paths only. */
export function makeRelayDir(home: string, sessionId: string): string {
  const dir = relayDir(home, sessionId);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  return dir;
}

let written = 0;

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;
const OVER_LIMIT = `over the limit of ${kib(RELAY_MAX_REQUEST_BYTES)} a request`;

/** The requests waiting in `dir` (names ending .json) and their bytes. */
function pending(dir: string): { count: number; bytes: number } {
  let count = 0;
  let bytes = 0;
  for (const name of readdirSync(dir)) {
    if (!name.endsWith(".json")) continue;
    count++;
    bytes += lstatSync(join(dir, name), { throwIfNoEntry: false })?.size ?? 0;
  }
  return { count, bytes };
}

/**
 * Leaves a request (written whole, then renamed: the host never reads half a file). Refused,
 * nothing written, when it is over the size limit or the folder is full.
 */
export function writeRelayRequest(dir: string, request: RelayRequest): void {
  const body = JSON.stringify(request);
  const size = Buffer.byteLength(body);
  if (size > RELAY_MAX_REQUEST_BYTES) {
    throw new ToolError(`this ${request.kind} request is ${kib(size)}, over the relay's limit of ${kib(RELAY_MAX_REQUEST_BYTES)} a request; nothing was sent`, "invalid");
  }
  const waiting = pending(dir);
  if (waiting.count >= RELAY_MAX_PENDING || waiting.bytes + size > RELAY_MAX_PENDING_BYTES) {
    throw new ToolError(
      `the relay folder ${dir} is full: ${waiting.count} requests (${kib(waiting.bytes)}) wait that no termhive server has taken (at most ${RELAY_MAX_PENDING} / ${kib(RELAY_MAX_PENDING_BYTES)}); a running termhive server (termhive serve, or your MCP client's) takes them; nothing was sent`,
      "unavailable",
    );
  }
  // Sorted by name = oldest first: the time, then this process's count (two in one millisecond).
  const name = `${String(Date.now()).padStart(15, "0")}-${String(++written).padStart(6, "0")}-${process.pid}-${randomBytes(4).toString("hex")}`;
  const tmp = join(dir, `.${name}.tmp`);
  writeFileSync(tmp, body, { mode: 0o600 });
  renameSync(tmp, join(dir, `${name}.json`));
}

function parseRequest(text: string): RelayRequest | null {
  try {
    const r = JSON.parse(text) as Record<string, unknown>;
    if (r.kind === "msg" && typeof r.to === "string" && typeof r.text === "string") return { kind: "msg", to: r.to, text: r.text };
    if (r.kind === "status" && Array.isArray(r.args) && r.args.every((a) => typeof a === "string")) return { kind: "status", args: r.args as string[] };
    if (r.kind === "hook" && typeof r.event === "string" && typeof r.status === "string" && typeof r.firedAt === "number") {
      const channel = r.channel === "hooks" || r.channel === "notify" ? { channel: r.channel as "hooks" | "notify" } : {};
      const prompt = typeof r.promptDigest === "string" && /^[0-9a-f]{64}$/.test(r.promptDigest) ? { promptDigest: r.promptDigest } : {};
      return { kind: "hook", event: r.event, status: r.status, detail: typeof r.detail === "string" ? r.detail : null, endsTurn: r.endsTurn === true, firedAt: r.firedAt, ...channel, ...prompt };
    }
  } catch {
    // not JSON: dropped below
  }
  return null;
}

/** A file of the relay folder that was not applied, and why (the follower audits it). */
export interface RelayRefusal {
  file: string;
  bytes: number;
  reason: string;
}

/**
 * The request file's text, read without trusting it: no symlink followed, no FIFO or device
 * waited on, never more than the limit read. A string, or why it is refused.
 */
function readBounded(path: string): string | { refused: string; bytes: number } {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (error) {
    return { refused: `not a file (${(error as NodeJS.ErrnoException).code ?? "unreadable"})`, bytes: 0 };
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { refused: "not a regular file", bytes: 0 };
    if (stat.size > RELAY_MAX_REQUEST_BYTES) return { refused: OVER_LIMIT, bytes: stat.size };
    // The file may still grow (a program writing it directly): one byte past the limit says so.
    const buffer = Buffer.allocUnsafe(RELAY_MAX_REQUEST_BYTES + 1); // only the bytes read are used
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    if (length > RELAY_MAX_REQUEST_BYTES) return { refused: OVER_LIMIT, bytes: length };
    return buffer.toString("utf8", 0, length);
  } finally {
    closeSync(fd);
  }
}

/** The first `max` names of the folder open as `dir` (in the folder's own order), and whether there are more. */
function someNames(dir: number, max: number): { names: string[]; more: boolean } {
  const listing = opendirSync(entryAt(dir, ""));
  const names: string[] = [];
  try {
    for (let entry = listing.readSync(); entry; entry = listing.readSync()) {
      if (names.length === max) return { names, more: true };
      names.push(entry.name);
    }
    return { names, more: false };
  } finally {
    listing.closeSync();
  }
}

/** Removes what is not a waiting request: a leftover of a killed writer or reader, or anything else. */
function sweepOthers(dir: number, names: string[], refused: RelayRefusal[], budget: RemovalBudget): void {
  const now = Date.now();
  for (const name of names) {
    const stat = lstatSync(entryAt(dir, name), { throwIfNoEntry: false });
    if (!stat) continue;
    const leftover = name.endsWith(".tmp") || name.endsWith(".taken");
    // A .tmp being written now, or a .taken another server is reading now, is left alone.
    if (leftover && stat.isFile() && stat.size <= RELAY_MAX_REQUEST_BYTES && now - stat.mtimeMs < LEFTOVER_MS) continue;
    if (budget.left <= 0) return; // the next pass
    const removed = removeEntry(dir, name, budget);
    const why = !leftover ? "not a request file" : stat.size > RELAY_MAX_REQUEST_BYTES ? OVER_LIMIT : "left over by a process that was killed";
    refused.push({ file: name, bytes: stat.isFile() ? stat.size : 0, reason: removed ? why : `${why}; part of it is left for a later pass` });
  }
}

/**
 * The requests waiting in `dir`, oldest first, each taken by this process alone (renamed away
 * first: two servers following the same pane never apply one twice), within the bounds above:
 * a file over the size limit, malformed, or past the count and bytes bound is removed unapplied
 * and listed in `refused`, as is anything else found in the folder. The program inside can
 * change the folder at any moment: every step acts on a name in the folder held open, and no
 * link it planted is followed (safe-remove.ts). A pass is bounded (PASS_NAMES, PASS_ENTRIES):
 * `more` says another pass is due.
 */
export function takeRelayRequests(path: string): { requests: RelayRequest[]; refused: RelayRefusal[]; more: boolean } {
  const requests: RelayRequest[] = [];
  const refused: RelayRefusal[] = [];
  let dir: number;
  try {
    dir = openFolder(path);
  } catch {
    return { requests, refused, more: false }; // no folder (the pane is gone): nothing waits
  }
  const budget: RemovalBudget = { left: PASS_ENTRIES };
  let more: boolean;
  try {
    const listed = someNames(dir, PASS_NAMES);
    const names = listed.names;
    const waiting = names.filter((n) => n.endsWith(".json")).sort();
    sweepOthers(dir, names.filter((n) => !n.endsWith(".json")), refused, budget);
    let bytes = 0;
    for (const [index, name] of waiting.entries()) {
      const taken = `.${name}.${process.pid}.taken`;
      try {
        renameSync(entryAt(dir, name), entryAt(dir, taken));
      } catch {
        continue; // another process took it
      }
      try {
        const text = readBounded(entryAt(dir, taken));
        if (typeof text !== "string") {
          refused.push({ file: name, bytes: text.bytes, reason: text.refused });
          continue;
        }
        const size = Buffer.byteLength(text);
        bytes += size;
        if (index >= RELAY_MAX_PENDING || bytes > RELAY_MAX_PENDING_BYTES) {
          refused.push({ file: name, bytes: size, reason: `past the ${RELAY_MAX_PENDING} requests / ${kib(RELAY_MAX_PENDING_BYTES)} the folder holds` });
          continue;
        }
        const request = parseRequest(text);
        if (request) requests.push(request);
        else refused.push({ file: name, bytes: size, reason: "not a request (malformed)" });
      } finally {
        // A taken file is one entry: removed even when the pass's budget is spent (a taken folder then waits for the next pass).
        removeEntry(dir, taken, budget.left > 0 ? budget : { left: 1 });
      }
    }
    more = listed.more || budget.left <= 0;
  } finally {
    closeSync(dir);
  }
  return { requests, refused, more };
}

/** The folder of a pane that is gone: removed, with whatever is left in it (no link followed). False when something could not be. */
export function removeRelayDir(dir: string): boolean {
  return removeFolder(dir);
}
