// Shared state for a backend that lives inside one process (pty): a map is the whole truth,
// because no other process can see its panes.
export class MemoryShared {
  private readonly values = new Map<string, string>();

  private static key(paneId: string | null, key: string): string {
    return `${paneId ?? ""}\u0000${key}`;
  }

  read(paneId: string | null, key: string): string {
    return this.values.get(MemoryShared.key(paneId, key)) ?? "";
  }

  write(paneId: string | null, key: string, value: string): void {
    if (value) this.values.set(MemoryShared.key(paneId, key), value);
    else this.values.delete(MemoryShared.key(paneId, key));
  }

  swap(paneId: string | null, key: string, expected: string, next: string): string {
    if (this.read(paneId, key) === expected) this.write(paneId, key, next);
    return this.read(paneId, key);
  }

  /** Forgets a closed pane's values. */
  dropPane(paneId: string): void {
    const prefix = `${paneId}\u0000`;
    for (const key of [...this.values.keys()]) if (key.startsWith(prefix)) this.values.delete(key);
  }
}
