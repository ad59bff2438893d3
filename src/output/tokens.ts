import { countBpeSteps, countBpeTokens, runSteps, STEP } from "./bpe.js";

/**
 * Token counts with the cl100k_base tokenizer — a real BPE, close enough to frontier
 * models' tokenizers to budget by, loaded on first count (bpe.ts, token-ranks.ts).
 *
 * Cost, measured on this machine: ~15–20 ms per MB of log text, ~25 ms for
 * `seq 1 200000` (1.3 MB); text that needs merging costs more, ~0.7–1 µs a byte for
 * letters without spaces (merging is O(n log n) per piece). `raw_tokens` is only a
 * comparison figure, so it is counted in bounded work and says when it is an estimate
 * (`estimated: true`, kept as Rendered's `raw_tokens_estimated`): text up to EXACT_LIMIT characters
 * is counted exactly, except a "word" longer than LONG_PIECE_CHARS (bpe.ts), counted from its
 * first 4 KB and scaled by its length; beyond EXACT_LIMIT three evenly spaced samples are
 * counted so and scaled by length. At most ~64 KB is merged for any text, in steps of ~4 KB
 * between which a caller can give the event loop back (countTokensBoundedSteps). What we
 * return to the model is small by construction and is always counted exactly.
 */
export const EXACT_LIMIT = 64 * 1024;
const SAMPLE_CHARS = 16 * 1024;

export interface TokenCount {
  count: number;
  estimated: boolean;
}

export { STEP };

export function countTokens(text: string): number {
  return countBpeTokens(text);
}

export function countTokensBounded(text: string): TokenCount {
  return runSteps(countTokensBoundedSteps(text));
}

/** countTokensBounded, yielding STEP between slices of its work. */
export function* countTokensBoundedSteps(text: string): Generator<typeof STEP, TokenCount, void> {
  if (text.length <= EXACT_LIMIT) return yield* countBpeSteps(text, { estimateLongPieces: true });
  let sampled = 0;
  let sampledChars = 0;
  for (const start of [0, Math.floor((text.length - SAMPLE_CHARS) / 2), text.length - SAMPLE_CHARS]) {
    const sample = text.slice(start, start + SAMPLE_CHARS);
    sampled += (yield* countBpeSteps(sample, { estimateLongPieces: true })).count;
    sampledChars += sample.length;
  }
  return { count: Math.round((sampled * text.length) / sampledChars), estimated: true };
}

/** True when text has at most `limit` tokens; stops counting as soon as it is over. */
export function fitsTokens(text: string, limit: number): boolean {
  return runSteps(fitsTokensSteps(text, limit));
}

/** fitsTokens, yielding STEP between slices of its work. */
export function* fitsTokensSteps(text: string, limit: number): Generator<typeof STEP, boolean, void> {
  const { count } = yield* countBpeSteps(text, { limit });
  return count <= limit || count === 0;
}
