// Timing in unit tests says how work grows, not how fast a machine is: a shared, loaded CI
// machine makes any fixed budget flaky, while a quadratic pass shows at 1 MB whatever the load.
// The speed figures themselves are in `npm run bench pure`.
import assert from "node:assert/strict";

/** Below this a 1 MB pass is fast enough to say nothing about its growth (a quadratic one takes seconds). */
const CLEARLY_FAST_MS = 100;
/** Eight times the input: linear work takes ~8× as long, quadratic ~64×. */
const GROWTH = 8;
const MAX_RATIO = 24;

function fastest(runs: number, work: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    work();
    best = Math.min(best, performance.now() - start);
  }
  return best;
}

/**
 * Fails when `work` on an input of `size` takes clearly longer than linear growth from an input
 * of size/8 allows (the fastest of `runs` each, after a warm-up).
 */
export function assertLinear<T>(label: string, build: (size: number) => T, work: (input: T) => void, size = 1024 * 1024, runs = 3): void {
  const small = build(Math.floor(size / GROWTH));
  const large = build(size);
  work(small);
  work(large);
  const smallMs = fastest(runs, () => work(small));
  const largeMs = fastest(runs, () => work(large));
  const ratio = largeMs / Math.max(smallMs, 0.01);
  assert.ok(largeMs < CLEARLY_FAST_MS || ratio < MAX_RATIO, `${label}: ${largeMs.toFixed(1)} ms at ${size} vs ${smallMs.toFixed(1)} ms at ${size / GROWTH} (×${ratio.toFixed(1)}; linear is ×${GROWTH})`);
}
