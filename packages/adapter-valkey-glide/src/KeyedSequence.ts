/**
 * Sends calls about one key one after the other, in the order they were made. GLIDE does not keep
 * the order of requests made at the same moment on one client: its core handles each request as a
 * task of its own, so of 300 `RPUSH`es made in one tick, tens reach the server out of order. The
 * other drivers pipeline in call order, and Deadbolt relies on it where it matters: a `FairLock`'s
 * waiters of one process queue in the order they called. So a call about a key waits until the
 * previous call about the same key has its reply (or failed); calls about different keys still go
 * out together.
 */
export class KeyedSequence {
  // The last call per key, settled or not; removed once the key has nothing in flight.
  readonly #tails = new Map<string, Promise<unknown>>();

  /** Runs `send` once every earlier call about `key` has settled; resolves with its outcome. */
  run<T>(key: string, send: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key);
    const call = previous === undefined ? send() : previous.then(send, send);
    const tail = call.then(ignore, ignore);
    this.#tails.set(key, tail);
    void tail.then(() => {
      if (this.#tails.get(key) === tail) this.#tails.delete(key);
    });
    return call;
  }
}

function ignore(): void {}
