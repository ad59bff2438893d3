// Masks secrets in a stream of text chunks although one may arrive split across two chunks:
// the end of each chunk that could still be the start of a secret is held back and joined
// to the next chunk (or written on its own once output pauses).
import { redactSecrets } from "../../redact.js";

export class SecretHoldback {
  private held = "";
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly secrets: () => readonly string[],
    private readonly emit: (masked: string) => void,
    /** A held tail is written after this much quiet: a secret split by a longer pause is not caught. */
    private readonly quietMs = 100,
  ) {}

  push(text: string): void {
    const combined = this.held + text;
    this.held = "";
    const secrets = this.secrets().filter((s) => s.trim() !== "");
    const longest = secrets.reduce((max, s) => Math.max(max, s.length), 0);
    if (longest <= 1) {
      this.write(combined);
      return;
    }
    let cut = Math.max(0, combined.length - (longest - 1));
    // Never cut through a whole secret: keep it in one piece with what follows. Moving the
    // cut left can split another occurrence, so repeat until no secret spans it.
    for (let moved = true; moved; ) {
      moved = false;
      for (const secret of secrets) {
        const at = cut > 0 ? combined.lastIndexOf(secret, cut - 1) : -1;
        if (at !== -1 && at < cut && at + secret.length > cut) {
          cut = at;
          moved = true;
        }
      }
    }
    this.write(combined.slice(0, cut));
    this.held = combined.slice(cut);
    if (this.held) this.armFlush();
  }

  /** Writes whatever is held (before a resize event, at close). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const held = this.held;
    this.held = "";
    this.write(held);
  }

  private write(text: string): void {
    if (text) this.emit(redactSecrets(text, this.secrets()));
  }

  private armFlush(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flush();
    }, this.quietMs);
    this.timer.unref();
  }
}
