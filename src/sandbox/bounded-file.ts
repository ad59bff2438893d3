// Files the server reads at a sandboxed launch that a sandbox may have written before: a
// project's `.mcp.json` in a write path (a pane can make one where none was), `~/.claude.json`
// under a policy that names it. They are read as untrusted: only a regular file (a FIFO there
// would block the read for ever, a link to /dev/zero never end), never more than
// REGISTRATION_MAX_BYTES, in chunks, asynchronously, so a huge file neither fills the server's
// memory nor stops its event loop. Tokens are ASCII, so the bytes go through as latin1: a copy
// is the file byte for byte, masked.
import { constants } from "node:fs";
import { open, unlink, type FileHandle } from "node:fs/promises";

/**
 * Claude Code keeps its project history in ~/.claude.json: real files of 65 MB and 101 MB are
 * reported (anthropics/claude-code#6394, #2593). A bound above those; past it the file is not
 * read at all (see shieldFor: the pane gets an empty file in its place).
 */
export const REGISTRATION_MAX_BYTES = 128 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

/** What a bounded look at a file found. */
export type FileLook = "missing" | "clean" | "holds" | "oversize";

const READ_FLAGS = constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY;

/** The file and its size, if it is a regular one (links followed: what the pane would read through them). */
async function openRegular(path: string): Promise<{ handle: FileHandle; size: number } | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, READ_FLAGS);
  } catch {
    return null;
  }
  try {
    const stat = await handle.stat();
    if (stat.isFile()) return { handle, size: stat.size };
  } catch {
    // fall through: closed below
  }
  await handle.close().catch(() => {});
  return null;
}

/**
 * Hands the file to `take` chunk by chunk, at most `max` bytes: one more and it is "oversize".
 * `take` returning true stops the read ("stopped").
 */
async function eachChunk(path: string, max: number, take: (chunk: string) => boolean | void | Promise<boolean | void>): Promise<"missing" | "read" | "stopped" | "oversize"> {
  const opened = await openRegular(path);
  if (!opened) return "missing";
  const { handle, size } = opened;
  try {
    // Past the bound already (a sparse file is as long as it says): not read at all. One that
    // grows while it is read is stopped by the count below.
    if (size > max) return "oversize";
    const buffer = Buffer.alloc(CHUNK_BYTES);
    let total = 0;
    for (;;) {
      let bytesRead: number;
      try {
        ({ bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, max + 1 - total), null));
      } catch {
        return "missing"; // unreadable (an I/O error): nothing the pane reads there either
      }
      if (bytesRead === 0) return "read";
      total += bytesRead;
      if (total > max) return "oversize";
      // What the caller does with a chunk may fail (a copy's write): that is its error, not "missing".
      if ((await take(buffer.toString("latin1", 0, bytesRead))) === true) return "stopped";
    }
  } finally {
    await handle.close().catch(() => {});
  }
}

/** Whether the file holds any of `needles` (non-empty), read within `max` bytes. */
export async function lookFor(path: string, needles: string[], max = REGISTRATION_MAX_BYTES): Promise<FileLook> {
  const keep = Math.max(0, ...needles.map((n) => n.length)) - 1;
  let tail = "";
  const outcome = await eachChunk(path, max, (chunk) => {
    const text = tail + chunk;
    if (needles.some((n) => text.includes(n))) return true;
    tail = keep > 0 ? text.slice(-keep) : "";
  });
  return outcome === "stopped" ? "holds" : outcome === "read" ? "clean" : outcome;
}

/**
 * Writes `path`'s bytes to `dest` (owner-only) with every needle replaced by `mask`, within
 * `max` bytes. "missing": not a regular file (nothing written); "oversize": over the bound
 * (nothing left at `dest`).
 */
export async function copyMasked(path: string, dest: string, needles: string[], mask: string, max = REGISTRATION_MAX_BYTES): Promise<"missing" | "copied" | "oversize"> {
  const keep = Math.max(0, ...needles.map((n) => n.length)) - 1;
  const masked = (text: string) => needles.reduce((out, n) => out.split(n).join(mask), text);
  let out: FileHandle | undefined;
  let carry = "";
  try {
    const outcome = await eachChunk(path, max, async (chunk) => {
      const text = carry + chunk;
      // The last `keep` characters may begin a needle the next chunk ends: kept back, unless a
      // needle that crosses that cut is whole here already (then the cut moves past it).
      let cut = Math.max(0, text.length - keep);
      for (const n of needles) {
        const at = text.indexOf(n, Math.max(0, cut - n.length + 1));
        if (at !== -1 && at < cut) cut = Math.max(cut, at + n.length);
      }
      carry = text.slice(cut);
      out ??= await open(dest, "w", 0o600);
      await out.write(masked(text.slice(0, cut)), null, "latin1");
    });
    if (outcome === "missing" || outcome === "oversize") {
      // Nothing half-copied stays behind (a file that went while read, or one past the bound).
      if (out) {
        await out.close();
        out = undefined;
        await unlink(dest).catch(() => {});
      }
      return outcome;
    }
    out ??= await open(dest, "w", 0o600);
    await out.write(masked(carry), null, "latin1");
    return "copied";
  } finally {
    await out?.close().catch(() => {});
  }
}

/** The start of a small file (a token), at most `max` bytes; null when it is not a regular file or is longer. */
export async function readSmall(path: string, max: number): Promise<string | null> {
  let text = "";
  const outcome = await eachChunk(path, max, (chunk) => {
    text += chunk;
  });
  return outcome === "read" ? text : null;
}
