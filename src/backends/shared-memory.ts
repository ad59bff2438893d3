// Shared state for a backend that lives inside one process (pty): a map is the whole truth,
// because no other process can see its panes.
import type { SharedState } from "./backend.js";

export class MemoryShared implements SharedState {
  private readonly values = new Map<string, string>();

  private static key(paneId: string | null, key: string): string {
    return `${paneId ?? ""}\u0000${key}`;
  }

  async readShared(paneId: string | null, key: string): Promise<string> {
    return this.read(paneId, key);
  }

  async writeShared(paneId: string | null, key: string, value: string): Promise<void> {
    if (value) this.values.set(MemoryShared.key(paneId, key), value);
    else this.values.delete(MemoryShared.key(paneId, key));
  }

  async swapShared(paneId: string | null, key: string, expected: string, next: string): Promise<string> {
    // One synchronous step, so no other call comes between the check and the write.
    if (this.read(paneId, key) === expected) void this.writeShared(paneId, key, next);
    return this.read(paneId, key);
  }

  /** Forgets a closed pane's values. */
  dropPane(paneId: string): void {
    const prefix = `${paneId}\u0000`;
    for (const key of [...this.values.keys()]) if (key.startsWith(prefix)) this.values.delete(key);
  }

  private read(paneId: string | null, key: string): string {
    return this.values.get(MemoryShared.key(paneId, key)) ?? "";
  }
}
