// Counting cl100k_base tokens without building token arrays: the text is split with the
// encoding's own pattern (from gpt-tokenizer), each piece that is not a token itself is
// byte-pair merged (lowest rank first, as tiktoken does), and only the count is kept.
// Special tokens such as "<|endoftext|>" count as the plain text they are.
import { createRequire } from "node:module";
import { loadRanks, type RankTable } from "./token-ranks.js";

const require = createRequire(import.meta.url);
let ranks: RankTable | undefined;
let split: RegExp | undefined;

function table(): RankTable {
  return (ranks ??= loadRanks());
}

function splitPattern(): RegExp {
  split ??= new RegExp((require("gpt-tokenizer/encodingParams/constants") as { CL100K_TOKEN_SPLIT_REGEX: RegExp }).CL100K_TOKEN_SPLIT_REGEX);
  return split;
}

/** Tokens in `text`; stops early and returns a number > limit once it is over `limit`. */
export function countBpeTokens(text: string, limit = Infinity): number {
  const pattern = splitPattern();
  const vocabulary = table();
  pattern.lastIndex = 0;
  let count = 0;
  let match: RegExpExecArray | null;
  while ((match = pattern.exec(text)) !== null) {
    count += pieceTokens(vocabulary, match[0], limit - count);
    if (count > limit) break;
  }
  return count;
}

/**
 * A piece longer than this many bytes (one "word" of 8 KB without a space or a change of
 * character class: a minified line, base64, a paste) is, when only a bound is asked for,
 * counted chunk by chunk and given up on once over the bound: merging costs ~0.7 µs a byte
 * for random letters, and deciding "more than 2000 tokens" needs no megabyte of it.
 */
const CHUNKED_PIECE_BYTES = 8 * 1024;

let scratch = new Uint8Array(256);
// Parts of the piece being merged, as a linked list over byte offsets: a part starts at i and
// ends where next[i] starts; pairRank[i] ranks part i merged with the part after it, and
// version[i] changes whenever that pair changes, so stale heap entries can be told apart.
let next = new Int32Array(256);
let prev = new Int32Array(256);
let pairRank = new Int32Array(256);
let version = new Int32Array(256);
const NONE = 0x7fffffff;

// Output repeats itself (progress lines, words of a non-English text): merged pieces are
// remembered, a bounded number of them.
const merged = new Map<string, number>();
const MERGED_CAP = 4096;

function pieceTokens(vocabulary: RankTable, piece: string, budget: number): number {
  const length = encodeUtf8(piece);
  // A piece holding a lone surrogate is never one token: gpt-tokenizer looks pieces up as
  // strings, and its replacement bytes (U+FFFD) only go through merging.
  if (length >= 0 && vocabulary.rank(scratch, 0, length) !== -1) return 1;
  const known = merged.get(piece);
  if (known !== undefined) return known;
  const bytes = Math.abs(length);
  if (budget !== Infinity && bytes > CHUNKED_PIECE_BYTES) return chunkedParts(vocabulary, bytes, budget);
  const count = mergedParts(vocabulary, 0, bytes);
  if (merged.size >= MERGED_CAP) merged.clear();
  merged.set(piece, count);
  return count;
}

/**
 * UTF-8 of `piece` into scratch, lone surrogates as U+FFFD like TextEncoder; returns the
 * byte length, negated when a lone surrogate was replaced.
 */
function encodeUtf8(piece: string): number {
  if (scratch.length < piece.length * 3) scratch = new Uint8Array(piece.length * 3);
  const out = scratch;
  let at = 0;
  let lone = false;
  for (let i = 0; i < piece.length; i++) {
    let code = piece.charCodeAt(i);
    if (code < 0x80) {
      out[at++] = code;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = piece.charCodeAt(i + 1);
      if (code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
        code = 0x10000 + ((code - 0xd800) << 10) + (next - 0xdc00);
        i++;
      } else {
        code = 0xfffd;
        lone = true;
      }
    }
    if (code < 0x800) {
      out[at++] = 0xc0 | (code >> 6);
    } else if (code < 0x10000) {
      out[at++] = 0xe0 | (code >> 12);
      out[at++] = 0x80 | ((code >> 6) & 0x3f);
    } else {
      out[at++] = 0xf0 | (code >> 18);
      out[at++] = 0x80 | ((code >> 12) & 0x3f);
      out[at++] = 0x80 | ((code >> 6) & 0x3f);
    }
    out[at++] = 0x80 | (code & 0x3f);
  }
  return lone ? -at : at;
}

/**
 * Parts left after merging scratch[0..length): start with single bytes, merge the
 * lowest-ranked pair (the leftmost among equals, as tiktoken does) until none is a token.
 * A heap of candidate pairs makes this O(n log n): a scan for the lowest pair per merge was
 * quadratic, and one 100 KB word without spaces took ~9 s of the event loop.
 */
function mergedParts(vocabulary: RankTable, from: number, to: number): number {
  if (next.length < to + 1) {
    next = new Int32Array(to + 1);
    prev = new Int32Array(to + 1);
    pairRank = new Int32Array(to + 1);
    version = new Int32Array(to + 1);
  }
  // One heap for every call (emptied here): three typed arrays allocated per piece cost more
  // than the merging itself on text of many short pieces (1 MB of random bytes: ~40 ms).
  const heap = sharedHeap;
  heap.size = 0;
  for (let i = from; i < to; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
    version[i] = 0;
  }
  const rankAt = (i: number): number => {
    const j = next[i]!;
    if (j >= to) return NONE;
    const rank = vocabulary.rank(scratch, i, next[j]!);
    return rank === -1 ? NONE : rank;
  };
  const refresh = (i: number): void => {
    pairRank[i] = rankAt(i);
    version[i]!++;
    if (pairRank[i] !== NONE) heap.push(pairRank[i]!, i, version[i]!);
  };
  for (let i = from; i < to; i++) {
    pairRank[i] = rankAt(i);
    if (pairRank[i] !== NONE) heap.push(pairRank[i]!, i, 0);
  }
  let parts = to - from;
  while (heap.size > 0) {
    const [rank, i, stamp] = heap.pop();
    if (stamp !== version[i] || rank !== pairRank[i]) continue; // superseded by a later merge
    // Merge part i with the part after it.
    const j = next[i]!;
    const after = next[j]!;
    next[i] = after;
    if (after < to) prev[after] = i;
    version[j] = -1; // part j no longer exists: its entries are stale
    parts--;
    refresh(i);
    if (prev[i]! >= from) refresh(prev[i]!);
  }
  return parts;
}

/**
 * Tokens of a long piece (in scratch[0..length)) merged chunk by chunk, cut at character
 * boundaries, stopping once over `budget`: a bound, not the exact count (chunk edges can
 * split a token), which is all a caller with a budget asked for.
 */
function chunkedParts(vocabulary: RankTable, length: number, budget: number): number {
  let count = 0;
  for (let from = 0; from < length && count <= budget; ) {
    let to = Math.min(length, from + CHUNKED_PIECE_BYTES);
    while (to < length && (scratch[to]! & 0xc0) === 0x80) to--; // not inside a UTF-8 sequence
    count += mergedParts(vocabulary, from, to);
    from = to;
  }
  return count;
}

/** A binary min-heap of (rank, offset, version), ordered by rank then offset. */
class PairHeap {
  private ranks = new Int32Array(64);
  private offsets = new Int32Array(64);
  private stamps = new Int32Array(64);
  size = 0;

  push(rank: number, offset: number, stamp: number): void {
    if (this.size === this.ranks.length) this.grow();
    let at = this.size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(rank, offset, parent)) break;
      this.move(parent, at);
      at = parent;
    }
    this.ranks[at] = rank;
    this.offsets[at] = offset;
    this.stamps[at] = stamp;
  }

  pop(): [number, number, number] {
    const top: [number, number, number] = [this.ranks[0]!, this.offsets[0]!, this.stamps[0]!];
    const last = --this.size;
    if (last === 0) return top;
    // Sift the last entry down from the root.
    const rank = this.ranks[last]!;
    const offset = this.offsets[last]!;
    const stamp = this.stamps[last]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= last) break;
      if (child + 1 < last && this.less(this.ranks[child + 1]!, this.offsets[child + 1]!, child)) child++;
      if (!this.before(child, rank, offset)) break;
      this.move(child, at);
      at = child;
    }
    this.ranks[at] = rank;
    this.offsets[at] = offset;
    this.stamps[at] = stamp;
    return top;
  }

  /** (rank, offset) orders before the entry at `at`. */
  private less(rank: number, offset: number, at: number): boolean {
    const other = this.ranks[at]!;
    return rank < other || (rank === other && offset < this.offsets[at]!);
  }

  /** The entry at `at` orders before (rank, offset). */
  private before(at: number, rank: number, offset: number): boolean {
    const own = this.ranks[at]!;
    return own < rank || (own === rank && this.offsets[at]! < offset);
  }

  private move(from: number, to: number): void {
    this.ranks[to] = this.ranks[from]!;
    this.offsets[to] = this.offsets[from]!;
    this.stamps[to] = this.stamps[from]!;
  }

  private grow(): void {
    const grown = (array: Int32Array) => {
      const bigger = new Int32Array(array.length * 2);
      bigger.set(array);
      return bigger;
    };
    this.ranks = grown(this.ranks);
    this.offsets = grown(this.offsets);
    this.stamps = grown(this.stamps);
  }
}

const sharedHeap = new PairHeap();
