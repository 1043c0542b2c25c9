/**
 * Caps how many statements hold a connection (or runner) at once; the rest wait in order. A wait
 * takes the statement's AbortSignal: an aborted waiter leaves the queue at once, so a statement
 * whose caller is gone neither keeps its place nor takes a slot later.
 */
export class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Rejects with the signal's reason when it aborts first. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted();
    if (this.active >= this.max) {
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => {
          const at = this.waiting.indexOf(wake);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(signal?.reason as Error);
        };
        // handed a slot: the abort listener goes, the slot is the waiter's to release
        const wake = () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiting.push(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    } else this.active++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // the slot passes straight to the next waiter, so `active` stays the same
      if (next) next();
      else this.active--;
    };
  }

  /** Statements waiting for a slot now. */
  get waitingCount(): number {
    return this.waiting.length;
  }
}
