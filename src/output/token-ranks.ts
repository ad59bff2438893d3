// The cl100k_base vocabulary as flat byte arrays and an open-addressing hash table: ~2 MB
// outside the JavaScript heap, where gpt-tokenizer's own tables (a 1.2 MB array literal
// parsed into 100k strings and a Map) cost ~40 MB of resident memory to load and ~10 MB
// of heap to keep. The data is gpt-tokenizer's, written at build time by
// scripts/gen-token-ranks.mjs into the file below (serializeRanks' format).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { packageRoot } from "../util/paths.js";

/** Where the build writes the vocabulary, relative to the package root. */
export const RANKS_FILE = join("dist", "data", "cl100k_base.bin");

export class RankTable {
  private readonly slots: Int32Array;
  private readonly mask: number;

  /** Token r is bytes[offsets[r] .. offsets[r + 1]); `slots`: the hash table, when the file has it. */
  constructor(
    private readonly bytes: Uint8Array,
    private readonly offsets: Int32Array,
    slots?: Int32Array,
  ) {
    const count = offsets.length - 1;
    const size = slotCount(count);
    this.mask = size - 1;
    if (slots?.length === size) {
      this.slots = slots;
      return;
    }
    this.slots = new Int32Array(size).fill(-1);
    for (let rank = 0; rank < count; rank++) {
      let slot = hash(bytes, offsets[rank]!, offsets[rank + 1]!) & this.mask;
      while (this.slots[slot] !== -1) slot = (slot + 1) & this.mask;
      this.slots[slot] = rank;
    }
  }

  /** The hash table, to store with the vocabulary. */
  get table(): Int32Array {
    return this.slots;
  }

  /** The rank of key[start..end), or -1 when those bytes are not a token. */
  rank(key: Uint8Array, start: number, end: number): number {
    const length = end - start;
    for (let slot = hash(key, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const rank = this.slots[slot]!;
      if (rank === -1) return -1;
      const at = this.offsets[rank]!;
      if (this.offsets[rank + 1]! - at !== length) continue;
      let i = 0;
      while (i < length && this.bytes[at + i] === key[start + i]) i++;
      if (i === length) return rank;
    }
  }
}

/** Slots of the open-addressing table for `count` tokens: a power of two, at most 40% full. */
function slotCount(count: number): number {
  let size = 1;
  while (size < count * 2.5) size *= 2;
  return size;
}

// FNV-1a.
function hash(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i]!, 0x01000193);
  return h >>> 0;
}

/**
 * gpt-tokenizer's rank list (index = rank; a string token, or the bytes of one that is
 * not valid UTF-8) → [count: u32 LE][length of each token: u8][all token bytes][zeros to a
 * multiple of 4][the hash table: i32 LE per slot]. The table is built here, at build time:
 * building it at the first count held the event loop for 25–110 ms on a server's first
 * large result.
 */
export function serializeRanks(ranks: readonly (string | readonly number[])[]): Uint8Array {
  const encoder = new TextEncoder();
  const tokens = ranks.map((token) => (typeof token === "string" ? encoder.encode(token) : Uint8Array.from(token)));
  const total = tokens.reduce((sum, token) => sum + token.length, 0);
  const tableAt = align4(4 + tokens.length + total);
  const size = slotCount(tokens.length);
  const out = new Uint8Array(tableAt + size * 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, tokens.length, true);
  let at = 4 + tokens.length;
  tokens.forEach((token, rank) => {
    if (token.length > 255) throw new Error(`token ${rank} is ${token.length} bytes; the format allows 255`);
    out[4 + rank] = token.length;
    out.set(token, at);
    at += token.length;
  });
  const built = parseRanks(out.subarray(0, 4 + tokens.length + total)).table;
  built.forEach((rank, slot) => view.setInt32(tableAt + slot * 4, rank, true));
  return out;
}

export function parseRanks(data: Uint8Array): RankTable {
  const count = new DataView(data.buffer, data.byteOffset, data.byteLength).getUint32(0, true);
  const offsets = new Int32Array(count + 1);
  for (let rank = 0; rank < count; rank++) offsets[rank + 1] = offsets[rank]! + data[4 + rank]!;
  const bytesEnd = 4 + count + offsets[count]!;
  const tableAt = align4(bytesEnd);
  const size = slotCount(count);
  return new RankTable(data.subarray(4 + count, bytesEnd), offsets, data.length === tableAt + size * 4 ? slotsOf(data, tableAt, size) : undefined);
}

function align4(n: number): number {
  return (n + 3) & ~3;
}

/** The stored table as Int32s (a copy only when the file's buffer is not 4-byte aligned there, or not little-endian). */
function slotsOf(data: Uint8Array, at: number, size: number): Int32Array {
  const start = data.byteOffset + at;
  const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;
  if (start % 4 === 0 && littleEndian) return new Int32Array(data.buffer, start, size);
  const view = new DataView(data.buffer, start, size * 4);
  return Int32Array.from({ length: size }, (_, slot) => view.getInt32(slot * 4, true));
}

/** The built file; without it (running from source, before a build) the package's own list. */
export function loadRanks(): RankTable {
  const file = join(packageRoot(), RANKS_FILE);
  if (existsSync(file)) return parseRanks(readFileSync(file));
  const require = createRequire(import.meta.url);
  const ranks = (require("gpt-tokenizer/bpeRanks/cl100k_base") as { default: (string | number[])[] }).default;
  return parseRanks(serializeRanks(ranks));
}
