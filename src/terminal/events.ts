// Typed events with disposable subscriptions (the shape of VS Code's and xterm.js's Emitter):
// a subscriber holds what `on` returned and disposes it, instead of keeping the listener
// function around to hand back to `off`.

export interface Disposable {
  dispose(): void;
}

/** Subscribes a listener; the returned handle unsubscribes it. */
export type Event<T> = (listener: (value: T) => void) => Disposable;

export class Emitter<T> {
  private readonly listeners = new Set<(value: T) => void>();

  /** What owners expose publicly: subscribing, not firing. */
  readonly event: Event<T> = (listener) => {
    // A wrapper per subscription: the same function subscribed twice is two subscriptions.
    const entry = (value: T) => listener(value);
    this.listeners.add(entry);
    return { dispose: () => void this.listeners.delete(entry) };
  };

  /** Calls the listeners subscribed when it starts, in subscription order (as EventEmitter does). */
  fire(value: T): void {
    if (this.listeners.size === 0) return;
    for (const listener of [...this.listeners]) listener(value);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

/** One handle for several subscriptions (a subscriber's whole wiring). */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];

  add<D extends Disposable>(item: D): D {
    this.items.push(item);
    return item;
  }

  dispose(): void {
    for (const item of this.items.splice(0)) item.dispose();
  }
}
