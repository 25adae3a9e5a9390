/**
 * Runs one call at a time: a call made while another is in flight waits for it to settle, then
 * runs, so that it sees what the first one did. What a held lock's `release()` needs, where a
 * second call must find the first one's outcome (released, or not) rather than race it. For lock
 * kind authors.
 */
export class OneAtATime {
  #inFlight: Promise<unknown> | undefined;

  /** Runs `work` once no earlier call is in flight; resolves or rejects as it does. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    while (this.#inFlight) await this.#inFlight;
    const running = work();
    const settled = running.catch(() => undefined);
    this.#inFlight = settled;
    try {
      return await running;
    } finally {
      if (this.#inFlight === settled) this.#inFlight = undefined;
    }
  }
}
