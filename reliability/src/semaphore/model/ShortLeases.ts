import { setTimeout as sleep } from 'node:timers/promises';

/** The short lease a model step asks for, in ms: it ends within the run, at the next `pass`. */
export const SHORT_LEASE_MS = 300;
// A step (its call and the reads after it) starts no closer than this to a short lease's
// earliest end: no lease ends while a step runs, so the model knows which leases ended.
const GUARD_MS = 200;
// A pass sleeps this long past the latest end of every short lease: Redis's scripts compare
// whole milliseconds, and a holder's lease timer may fire a little late.
const MARGIN_MS = 50;

/**
 * The short leases of a model run, in real time (`performance.now()`): each ends between the
 * moment its request was sent and the moment its reply came, plus {@link SHORT_LEASE_MS}. Time
 * passes at a `pass` step, which sleeps until all of them have surely ended; a step that might
 * otherwise meet one's end is preceded by a pass (`due`).
 */
export class ShortLeases {
  #earliestEnd: number | undefined;
  #latestEnd: number | undefined;

  /** A short lease was set by a request sent at `sentAt` and answered at `repliedAt`. */
  started(sentAt: number, repliedAt: number): void {
    this.#earliestEnd = Math.min(this.#earliestEnd ?? Infinity, sentAt + SHORT_LEASE_MS);
    this.#latestEnd = Math.max(this.#latestEnd ?? -Infinity, repliedAt + SHORT_LEASE_MS);
  }

  /** Whether a short lease set so far may not have ended yet. */
  get pending(): boolean {
    return this.#latestEnd !== undefined;
  }

  /** Whether a short lease may end within the next {@link GUARD_MS}: time must pass first. */
  due(): boolean {
    return this.#earliestEnd !== undefined && performance.now() + GUARD_MS > this.#earliestEnd;
  }

  /** Sleeps until every short lease set so far has ended, with a margin. */
  async pass(): Promise<void> {
    const until = this.#latestEnd;
    this.#earliestEnd = undefined;
    this.#latestEnd = undefined;
    if (until !== undefined) await sleep(Math.max(0, until + MARGIN_MS - performance.now()));
  }
}
