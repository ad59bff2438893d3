// The integrated shell's status file, `<home>/shell/status.<session>` ("<pid> <count> <status>",
// see run-state.ts and src/shell/). It is written by whatever runs in the pane — bound into a
// sandbox read-write, even a `readonly` one — so it is read as untrusted: never more than a
// status line, never through a link, never waiting on a FIFO. A sandboxed pane's file is also
// kept small on disk: emptied as soon as it grows past a status line (with the other marks it
// can write).
import { closeSync, constants, fstatSync, ftruncateSync, openSync, readSync, watch, type FSWatcher } from "node:fs";
import { join } from "node:path";

/** A status line is about 30 bytes ("<pid> <count> <status>"); more than this is not one. */
export const STATUS_LINE_MAX_BYTES = 256;

export function statusFilePath(home: string, sessionId: string): string {
  return join(home, "shell", `status.${sessionId}`);
}

const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** The status line, or "" (no evidence) when there is none, or the file is not one a shell wrote. */
export function readStatusLine(home: string, sessionId: string): string {
  let fd: number;
  try {
    fd = openSync(statusFilePath(home, sessionId), READ_FLAGS);
  } catch {
    return "";
  }
  try {
    if (!fstatSync(fd).isFile()) return "";
    // One byte past the bound tells a line from a file someone filled (it may grow while read).
    const buffer = Buffer.alloc(STATUS_LINE_MAX_BYTES + 1);
    let length = 0;
    for (let n = 1; n > 0 && length < buffer.length; length += n) n = readSync(fd, buffer, length, buffer.length - length, null);
    return length > STATUS_LINE_MAX_BYTES ? "" : buffer.toString("utf8", 0, length).trim();
  } catch {
    return "";
  } finally {
    closeSync(fd);
  }
}

/** Empties the file when it holds more than a status line; the shell rewrites it whole at its next prompt. */
function emptyIfOversize(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, constants.O_WRONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    const stat = fstatSync(fd);
    if (stat.isFile() && stat.size > STATUS_LINE_MAX_BYTES) ftruncateSync(fd, 0);
  } catch {
    // gone, or not a file: nothing on the disk to bound
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Keeps the files a sandboxed pane's shell can write — its status file, and the secret-line and
 * run-line marks termhive writes — within a status line on disk: checked at each write (an
 * inotify event), at most once per event-loop turn however many writes came. Returns the stop.
 * A writer holding the file open keeps writing past the end it had, which leaves a sparse
 * file: its size says so, its blocks are freed.
 */
export function capShellFiles(home: string, sessionId: string): () => void {
  const stops = [statusFilePath(home, sessionId), ...["secret", "run"].map((mark) => join(home, "shell", `${mark}.${sessionId}`))].map(capFile);
  return () => stops.forEach((stop) => stop());
}

function capFile(path: string): () => void {
  let watcher: FSWatcher | undefined;
  let queued = false;
  try {
    watcher = watch(path, () => {
      if (queued) return;
      queued = true;
      setImmediate(() => {
        queued = false;
        emptyIfOversize(path);
      });
    });
    watcher.unref();
    watcher.on("error", () => watcher?.close());
  } catch {
    return () => {}; // no file (no shell integration): nothing to cap
  }
  emptyIfOversize(path);
  return () => watcher?.close();
}
