// How long-lived parts end. Every part that holds a timer, a subscription, a socket or a file
// ends through one method, `dispose()`, and is registered with the part that made it, so an
// owner ends what it holds by disposing one thing, and the process ends by disposing its root.

export interface Disposable {
  dispose(): void;
}

/** A part whose end takes a while (a server closing its connections, a backend detaching). */
export interface AsyncDisposable {
  dispose(): void | Promise<void>;
}

/** A disposable that runs `end` on its first dispose only. */
export function toDisposable(end: () => void): Disposable {
  let ended = false;
  return {
    dispose: () => {
      if (ended) return;
      ended = true;
      end();
    },
  };
}

/**
 * What one owner holds (a subscriber's whole wiring, a crew's parts), ended together in the
 * order they were added. Once the store is disposed, a part added to it is disposed at once:
 * a part made late (a timer armed by a callback that was already on its way) must not outlive
 * its owner.
 */
export class DisposableStore implements Disposable {
  private readonly items: Disposable[] = [];
  private disposed = false;

  get isDisposed(): boolean {
    return this.disposed;
  }

  add<D extends Disposable>(item: D): D {
    if (this.disposed) item.dispose();
    else this.items.push(item);
    return item;
  }

  dispose(): void {
    this.disposed = true;
    for (const item of this.items.splice(0)) item.dispose();
  }
}

/**
 * The parts of an owner that end in an order written once, as names: parts are set as they
 * are made (in whatever order making them needs) and end in the written order, a part that
 * takes a while awaited before the next; a name never set is skipped. One part failing to end
 * does not keep the later ones open: every part is tried, and the first failure is the result
 * once all have ended. Disposing twice gives the same promise; a part set after is ended at once.
 */
export class EndingOrder<Name extends string> implements AsyncDisposable {
  private readonly parts = new Map<Name, AsyncDisposable>();
  private ended: Promise<void> | undefined;

  constructor(readonly order: readonly Name[]) {}

  set(name: Name, part: AsyncDisposable | undefined): void {
    if (!this.order.includes(name)) throw new Error(`${name} has no place in the ending order (${this.order.join(", ")})`);
    if (this.parts.has(name)) throw new Error(`${name} is set already`);
    if (part === undefined) return;
    if (this.ended) {
      // Its owner has ended: there is no one left to report a failure to.
      try {
        void Promise.resolve(part.dispose()).catch(() => undefined);
      } catch {
        // as above
      }
      return;
    }
    this.parts.set(name, part);
  }

  dispose(): Promise<void> {
    return (this.ended ??= this.endAll());
  }

  private async endAll(): Promise<void> {
    const failures: unknown[] = [];
    for (const name of this.order) {
      const part = this.parts.get(name);
      if (!part) continue;
      try {
        // A part that ends at once is not awaited: the parts that end at once end in one tick.
        const ending = part.dispose();
        if (ending) await ending;
      } catch (error) {
        failures.push(error);
      }
    }
    this.parts.clear();
    if (failures.length > 0) throw failures[0];
  }
}
