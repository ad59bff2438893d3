// The dashboard's refusals on serve's stderr, at most BURST lines per WINDOW_MS: a client
// hammering the live channel with bad requests must not flood the log. Lines held back are
// counted and said in the next line that gets through.
const BURST = 20;
const WINDOW_MS = 60_000;

export function limitedLog(write: (line: string) => void, now: () => number = Date.now): (line: string) => void {
  let windowStart = -Infinity;
  let used = 0;
  let held = 0;
  return (line) => {
    const t = now();
    if (t - windowStart >= WINDOW_MS) {
      windowStart = t;
      used = 0;
    }
    if (used >= BURST) {
      held++;
      return;
    }
    used++;
    write(held > 0 ? `${line} (and ${held} similar lines held back)` : line);
    held = 0;
  };
}
