// Writing input to a pty byte-exact, whatever its size.
import type { IPty } from "@lydell/node-pty";

/**
 * Chunks keep one write from holding a large buffer in libuv's queue while the program reads
 * slowly; waiting for each chunk's callback is the backpressure (the kernel's pty input queue is
 * small, a few KiB) and means the promise settles once the bytes are in the pty, as with tmux.
 */
const CHUNK = 16 * 1024;

interface WritableLike {
  write(data: Buffer, callback: (error?: Error | null) => void): boolean;
  destroyed?: boolean;
}

export async function writeToPty(pty: IPty, data: Buffer): Promise<void> {
  // node-pty's public write() takes a string and returns nothing; its Unix terminal writes to a
  // socket underneath that accepts Buffers and reports completion. Use it when present so bytes
  // that are not valid UTF-8 pass untouched and we can wait for them to land.
  const socket = (pty as unknown as { _socket?: WritableLike })._socket;
  for (let offset = 0; offset < data.length; offset += CHUNK) {
    const chunk = data.subarray(offset, offset + CHUNK);
    if (!socket || typeof socket.write !== "function") {
      (pty.write as (d: Buffer | string) => void)(chunk);
      continue;
    }
    if (socket.destroyed) throw new Error("the pane's terminal is closed");
    await new Promise<void>((resolve, reject) => {
      socket.write(chunk, (error) => (error ? reject(error) : resolve()));
    });
  }
}
