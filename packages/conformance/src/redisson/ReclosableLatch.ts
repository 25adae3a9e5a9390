type Waiter = (opened: boolean) => void;

/**
 * Redisson's `ReclosableLatch`: a gate that starts closed, lets every blocked caller through when
 * it opens, stays open (later callers pass at once) until it is closed again.
 */
export class ReclosableLatch {
  #opened = false;
  readonly #waiters = new Set<Waiter>();

  /** Whether the gate is open now. */
  get isOpened(): boolean {
    return this.#opened;
  }

  /** Opens the gate: every blocked caller passes, and so does every later one until {@link ReclosableLatch.close}. */
  open(): void {
    this.#opened = true;
    this.#settleAll(true);
  }

  /** Closes the gate; callers block again. */
  close(): void {
    this.#opened = false;
  }

  /**
   * Waits for the gate to be open, at most `timeout` ms (as long as it takes when absent).
   * Resolves `true` when it is open, `false` when the time ran out or the wait was interrupted.
   */
  await(timeout = Infinity): Promise<boolean> {
    if (this.#opened) return Promise.resolve(true);
    if (timeout <= 0) return Promise.resolve(false);
    return new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      const waiter: Waiter = (opened) => {
        clearTimeout(timer);
        this.#waiters.delete(waiter);
        resolve(opened);
      };
      this.#waiters.add(waiter);
      if (Number.isFinite(timeout)) timer = setTimeout(() => waiter(false), timeout);
    });
  }

  /** Ends every blocked wait without passing, as an interrupt would (used at shutdown). */
  interruptAll(): void {
    this.#settleAll(false);
  }

  #settleAll(opened: boolean): void {
    for (const waiter of [...this.#waiters]) waiter(opened);
  }
}
