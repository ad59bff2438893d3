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
    count += pieceTokens(vocabulary, match[0]);
    if (count > limit) break;
  }
  return count;
}

let scratch = new Uint8Array(256);
let starts = new Int32Array(256);
let pairRanks = new Int32Array(256);
const NONE = 0x7fffffff;

// Merging is quadratic in a piece's length, and output repeats itself (progress lines,
// words of a non-English text): merged pieces are remembered, a bounded number of them.
const merged = new Map<string, number>();
const MERGED_CAP = 4096;

function pieceTokens(vocabulary: RankTable, piece: string): number {
  const length = encodeUtf8(piece);
  // A piece holding a lone surrogate is never one token: gpt-tokenizer looks pieces up as
  // strings, and its replacement bytes (U+FFFD) only go through merging.
  if (length >= 0 && vocabulary.rank(scratch, 0, length) !== -1) return 1;
  const known = merged.get(piece);
  if (known !== undefined) return known;
  const count = mergedParts(vocabulary, Math.abs(length));
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

/** Parts left after merging scratch[0..length): start with single bytes, merge the lowest-ranked pair until none is a token. */
function mergedParts(vocabulary: RankTable, length: number): number {
  if (starts.length < length + 1) {
    starts = new Int32Array(length + 1);
    pairRanks = new Int32Array(length + 1);
  }
  // Part i is scratch[starts[i] .. starts[i + 1]); pairRanks[i] ranks parts i and i+1 merged.
  let parts = length;
  for (let i = 0; i <= length; i++) starts[i] = i;
  const pairRank = (i: number): number => {
    if (i + 2 > parts) return NONE;
    const rank = vocabulary.rank(scratch, starts[i]!, starts[i + 2]!);
    return rank === -1 ? NONE : rank;
  };
  for (let i = 0; i < parts; i++) pairRanks[i] = pairRank(i);
  while (parts > 1) {
    let lowest = NONE;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      if (pairRanks[i]! < lowest) {
        lowest = pairRanks[i]!;
        at = i;
      }
    }
    if (at === -1) break;
    // Merge parts at and at+1: drop the boundary between them.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairRanks.copyWithin(at + 1, at + 2, parts);
    parts--;
    pairRanks[at] = pairRank(at);
    if (at > 0) pairRanks[at - 1] = pairRank(at - 1);
  }
  return parts;
}
