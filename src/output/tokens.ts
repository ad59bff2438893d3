import { countBpeTokens } from "./bpe.js";

/**
 * Token counts with the cl100k_base tokenizer — a real BPE, close enough to frontier
 * models' tokenizers to budget by, loaded on first count (bpe.ts, token-ranks.ts).
 *
 * Cost, measured on this machine: ~15–20 ms per MB of log text, ~25 ms for
 * `seq 1 200000` (1.3 MB); text that needs merging costs more, up to ~0.7 µs a byte for
 * random letters without spaces (merging is O(n log n) per piece). `raw_tokens` is only
 * a comparison figure, so text up to EXACT_LIMIT characters is counted exactly (≤ ~45 ms
 * even for the worst shapes); beyond it three evenly spaced samples are counted exactly
 * and scaled by length, and the result says so (`estimated: true`, surfaced as
 * `raw_tokens_estimated`). What we return to the model is small by construction and is
 * always counted exactly.
 */
export const EXACT_LIMIT = 64 * 1024;
const SAMPLE_CHARS = 16 * 1024;

export interface TokenCount {
  count: number;
  estimated: boolean;
}

export function countTokens(text: string): number {
  return countBpeTokens(text);
}

export function countTokensBounded(text: string): TokenCount {
  if (text.length <= EXACT_LIMIT) return { count: countTokens(text), estimated: false };
  let sampled = 0;
  let sampledChars = 0;
  for (const start of [0, Math.floor((text.length - SAMPLE_CHARS) / 2), text.length - SAMPLE_CHARS]) {
    const sample = text.slice(start, start + SAMPLE_CHARS);
    sampled += countTokens(sample);
    sampledChars += sample.length;
  }
  return { count: Math.round((sampled * text.length) / sampledChars), estimated: true };
}

/** True when text has at most `limit` tokens; stops counting as soon as it is over. */
export function fitsTokens(text: string, limit: number): boolean {
  const count = countBpeTokens(text, limit);
  return count <= limit || count === 0;
}
