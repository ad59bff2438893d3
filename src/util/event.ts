// Typed events with disposable subscriptions: a subscriber holds what the event returned and
// disposes it, instead of keeping the listener function around to hand back to an `off`.
import type { Disposable } from "./lifecycle.js";

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
