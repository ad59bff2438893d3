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

/** Bytes encoded and merged so far: what tests pin bounds on (work counted, not wall time). */
export const bpeWork = { encoded: 0, merged: 0 };

export interface CountOptions {
  /** Stop once over this many tokens: the count returned is then some number above it. */
  limit?: number;
  /** Count a piece longer than LONG_PIECE_CHARS from its first chunk, scaled by its length. */
  estimateLongPieces?: boolean;
}

export interface StepCount {
  count: number;
  /** A long piece was estimated from its first chunk. */
  estimated: boolean;
}

/**
 * What countBpeSteps yields after about STEP_BYTES of merging: a point to give the event loop
 * back at. Counted across counts (a bounded count is three samples of 4 KB each) and small,
 * since merging code not yet optimized by V8 (a server's first large result) costs ~10 µs a byte.
 */
export const STEP = "step";
const STEP_BYTES = 4 * 1024;
let mergedAtStep = 0;

/**
 * A piece longer than this many characters (one "word" without a space or a change of
 * character class: a minified line, a paste, `'x' * 120000`) is never merged whole when only
 * a bound or an estimate is asked for: merging costs ~0.7–1 µs a byte, and one 120 KB word held
 * the loop for ~100 ms. Under a limit it is merged chunk by chunk until over the limit; for an
 * estimate its first chunk is merged and scaled by length (such a piece is one class of
 * character through its whole length, so its start stands for the rest).
 */
const CHUNK_CHARS = 4 * 1024;
export const LONG_PIECE_CHARS = 4 * 1024;

/** Tokens in `text`; stops early and returns a number > limit once it is over `limit`. */
export function countBpeTokens(text: string, limit = Infinity): number {
  // Run to its end at once, so the shared pattern's lastIndex cannot be moved meanwhile.
  const pattern = splitPattern();
  pattern.lastIndex = 0;
  return runSteps(countWith(pattern, text, { limit })).count;
}

/** Runs a counting generator to its end, without giving the loop back. */
export function runSteps<T>(steps: Generator<unknown, T, void>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** countBpeTokens in steps: yields STEP after about every STEP_BYTES merged. */
export function countBpeSteps(text: string, options: CountOptions = {}): Generator<typeof STEP, StepCount, void> {
  // A pattern of its own: another count can run while this one waits at a step.
  return countWith(new RegExp(splitPattern()), text, options);
}

function* countWith(pattern: RegExp, text: string, options: CountOptions): Generator<typeof STEP, StepCount, void> {
  const limit = options.limit ?? Infinity;
  const vocabulary = table();
  let count = 0;
  let estimated = false;
  let match: RegExpExecArray | null;
  while (count <= limit && (match = pattern.exec(text)) !== null) {
    const piece = match[0];
    if (piece.length > LONG_PIECE_CHARS && options.estimateLongPieces) {
      const end = chunkEnd(piece, 0, LONG_PIECE_CHARS);
      count += Math.round((mergedChars(vocabulary, piece, 0, end) * piece.length) / end);
      estimated = true;
    } else if (piece.length > CHUNK_CHARS && limit !== Infinity) {
      for (let at = 0; at < piece.length && count <= limit; ) {
        const end = chunkEnd(piece, at, CHUNK_CHARS);
        count += mergedChars(vocabulary, piece, at, end);
        at = end;
        if (bpeWork.merged - mergedAtStep >= STEP_BYTES) {
          mergedAtStep = bpeWork.merged;
          yield STEP;
        }
      }
    } else {
      count += pieceTokens(vocabulary, piece);
    }
    if (bpeWork.merged - mergedAtStep >= STEP_BYTES) {
      mergedAtStep = bpeWork.merged;
      yield STEP;
    }
  }
  return { count, estimated };
}

/** Where a chunk of at most `chars` characters from `at` ends, never inside a surrogate pair. */
function chunkEnd(piece: string, at: number, chars: number): number {
  let end = Math.min(piece.length, at + chars);
  const last = piece.charCodeAt(end - 1);
  if (end < piece.length && end - 1 > at && last >= 0xd800 && last <= 0xdbff) end--;
  return end;
}

/** Parts left after merging piece[from..to) on its own (a chunk of a long piece: never one token). */
function mergedChars(vocabulary: RankTable, piece: string, from: number, to: number): number {
  return mergedParts(vocabulary, 0, Math.abs(encodeUtf8(piece, from, to)));
}

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
// remembered, a bounded number of them, and only short ones (a key is kept whole).
const merged = new Map<string, number>();
const MERGED_CAP = 4096;
const MERGED_KEY_CHARS = 1024;
/** Longest token of the vocabulary, in bytes (token-ranks.ts stores lengths as one byte). */
const MAX_TOKEN_BYTES = 255;

function pieceTokens(vocabulary: RankTable, piece: string): number {
  const length = encodeUtf8(piece, 0, piece.length);
  // A piece holding a lone surrogate is never one token: gpt-tokenizer looks pieces up as
  // strings, and its replacement bytes (U+FFFD) only go through merging.
  if (length >= 0 && length <= MAX_TOKEN_BYTES && vocabulary.rank(scratch, 0, length) !== -1) return 1;
  const cache = piece.length <= MERGED_KEY_CHARS;
  const known = cache ? merged.get(piece) : undefined;
  if (known !== undefined) return known;
  const count = mergedParts(vocabulary, 0, Math.abs(length));
  if (!cache) return count;
  if (merged.size >= MERGED_CAP) merged.clear();
  merged.set(piece, count);
  return count;
}

/**
 * UTF-8 of piece[from..to) into scratch, lone surrogates as U+FFFD like TextEncoder; returns
 * the byte length, negated when a lone surrogate was replaced.
 */
function encodeUtf8(piece: string, from: number, to: number): number {
  if (scratch.length < (to - from) * 3) scratch = new Uint8Array((to - from) * 3);
  const out = scratch;
  let at = 0;
  let lone = false;
  for (let i = from; i < to; i++) {
    let code = piece.charCodeAt(i);
    if (code < 0x80) {
      out[at++] = code;
      continue;
    }
    if (code >= 0xd800 && code <= 0xdfff) {
      const next = i + 1 < to ? piece.charCodeAt(i + 1) : 0;
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
  bpeWork.encoded += at;
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
  bpeWork.merged += to - from;
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
    heap.pop();
    const rank = heap.topRank;
    const i = heap.topOffset;
    const stamp = heap.topStamp;
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

  /** The entry pop() took last (fields, not a tuple: a tuple per merge was most of merging's garbage). */
  topRank = 0;
  topOffset = 0;
  topStamp = 0;

  pop(): void {
    this.topRank = this.ranks[0]!;
    this.topOffset = this.offsets[0]!;
    this.topStamp = this.stamps[0]!;
    const last = --this.size;
    if (last === 0) return;
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
