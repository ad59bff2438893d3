// The stdio door's line limit, kept by termhive instead of the SDK.
//
// Why: the SDK's stdio transport buffers at most 10 MiB of a line and, past that, closes
// itself: the server ended with exit 0, nothing said, and the client read "Connection
// closed" (a 10 MB terminal_send). This stream sits between stdin and the transport: it
// passes whole lines up to `limit` bytes, and a longer line is dropped as it arrives (never
// held), answered with a JSON-RPC error naming the limit when its id can be read from the
// line's start or end, and said on stderr. The server lives and every later line is served.
// It only needs a Readable for stdin and a writer for stdout, so it carries over to any
// transport that takes its input stream.
import { Transform, type TransformCallback } from "node:stream";

/** Room a request needs around its text (the other fields, JSON escaping of ordinary text). */
export const STDIO_ENVELOPE_BYTES = 1024 * 1024;
/** How much of an over-long line's start and end is kept to find its id. */
const EDGE_BYTES = 4096;
/** -32600: the JSON-RPC code for a request that is not a valid request. */
const INVALID_REQUEST = -32600;

/** The id of a request line from its start (`{"jsonrpc":"2.0","id":7,…`) or end (`…,"id":7}`, the SDK's order). */
export function requestIdOf(head: string, tail: string): string | number | undefined {
  const value = String.raw`(-?\d+|"(?:[^"\\]|\\.){0,200}")`;
  const start = new RegExp(String.raw`^\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*${value}`).exec(head);
  const end = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${value}\s*\}\s*$`).exec(tail);
  const raw = start?.[1] ?? end?.[1];
  if (raw === undefined) return undefined;
  try {
    return JSON.parse(raw) as string | number;
  } catch {
    return undefined;
  }
}

export class StdioLineLimit extends Transform {
  /** Bytes of the current line seen so far. */
  private length = 0;
  /** The current line while it is within the limit. */
  private kept: Buffer[] = [];
  /** The line is over the limit: its start (for the id) and its last bytes. */
  private dropping = false;
  private head = "";
  private tail = Buffer.alloc(0);

  constructor(
    readonly limit: number,
    private readonly reply: (line: string) => void,
    private readonly warn: (line: string) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(10, from);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.absorb(chunk.subarray(from, end));
      if (newline !== -1) this.endLine();
      from = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropping) this.endLine();
    else if (this.kept.length > 0) this.push(Buffer.concat(this.kept));
    done();
  }

  private absorb(part: Buffer): void {
    this.length += part.length;
    if (!this.dropping && this.length <= this.limit) {
      this.kept.push(part);
      return;
    }
    if (!this.dropping) {
      this.dropping = true;
      this.head = Buffer.concat([...this.kept, part]).subarray(0, EDGE_BYTES).toString("utf8");
      this.kept = [];
    }
    this.tail = Buffer.concat([this.tail, part]).subarray(-EDGE_BYTES);
  }

  private endLine(): void {
    if (this.dropping) {
      const id = requestIdOf(this.head, this.tail.toString("utf8"));
      const message = `request is ${this.length} bytes; the stdio limit is ${this.limit} bytes (TERMHIVE_MAX_INPUT_BYTES + 1 MiB). Nothing was done; send less text per call.`;
      this.warn(`termhive: dropped a ${this.length}-byte stdio line (limit ${this.limit} bytes)${id === undefined ? "; no request id found, so no answer was sent" : ` for request ${JSON.stringify(id)}`}`);
      if (id !== undefined) this.reply(JSON.stringify({ jsonrpc: "2.0", id, error: { code: INVALID_REQUEST, message } }) + "\n");
    } else if (this.kept.length > 0) {
      this.push(Buffer.concat(this.kept));
    }
    this.length = 0;
    this.kept = [];
    this.dropping = false;
    this.head = "";
    this.tail = Buffer.alloc(0);
  }
}
