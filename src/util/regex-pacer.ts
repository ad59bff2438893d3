// Many user-regex matches in a row (a watcher over each new line, a pattern over a few texts)
// without holding the event loop: a match cheap enough runs in place, and the loop is given
// back whenever SYNC_MATCH_STEPS of estimated work have run since it last was; a match too
// costly for one slice runs in a worker (SafeRegex.execAsync). Answers are the in-place ones.
import { SYNC_MATCH_STEPS, type SafeMatch, type SafeRegex } from "./regex.js";

export class RegexPacer {
  private spent = 0;

  async exec(regex: SafeRegex, text: string): Promise<SafeMatch | null> {
    const cost = regex.cost(text);
    if (cost > SYNC_MATCH_STEPS) return regex.execAsync(text);
    if (this.spent + cost > SYNC_MATCH_STEPS) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      this.spent = 0;
    }
    this.spent += cost;
    return regex.exec(text);
  }
}
