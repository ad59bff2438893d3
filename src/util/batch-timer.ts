// When to hand on a stream's pending chunks. Output of one event-loop turn goes out together
// after that turn, so a quiet session's output is passed on at once. During a flood, a turn
// carries one read of tmux's pipe (~4.5 KB), and passing each on costs more than its bytes
// (a gRPC message, a recording line with its write): after a run, the next waits until
// `spacingMs` have passed, so a flood goes out in a few hundred chunks a second, not thousands.

export class BatchTimer {
  private immediate: NodeJS.Immediate | null = null;
  private timer: NodeJS.Timeout | null = null;
  private lastRun = -Infinity;

  constructor(
    private readonly run: () => void,
    private readonly spacingMs: number,
  ) {}

  /** Something is pending: `run` is called once, after this turn or at the spacing. */
  schedule(): void {
    if (this.immediate || this.timer) return;
    const wait = this.lastRun + this.spacingMs - performance.now();
    if (wait > 0) this.timer = setTimeout(() => this.fire(), Math.ceil(wait));
    else this.immediate = setImmediate(() => this.fire());
  }

  /** Runs now, if something was pending (before a resize, at close). */
  flush(): void {
    if (this.immediate || this.timer) this.fire();
  }

  /** Forgets what was scheduled. */
  cancel(): void {
    if (this.immediate) clearImmediate(this.immediate);
    if (this.timer) clearTimeout(this.timer);
    this.immediate = this.timer = null;
  }

  private fire(): void {
    this.cancel();
    this.lastRun = performance.now();
    this.run();
  }
}
