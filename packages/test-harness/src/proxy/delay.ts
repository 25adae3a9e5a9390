/** How long the fault proxy holds back each chunk, for one direction. */
export interface Delay {
  /** The fixed part, in milliseconds. */
  readonly ms: number;
  /** A random extra of up to this many milliseconds, drawn per chunk. Default 0. */
  readonly jitterMs?: number;
}

/** No delay. */
export const NO_DELAY: Delay = { ms: 0 };

/** Checks a {@link Delay} given at run time, so that a typo fails loudly instead of adding no latency. */
export function checkDelay(delay: Delay, what: string): Delay {
  for (const [name, value] of [
    ['ms', delay.ms],
    ['jitterMs', delay.jitterMs ?? 0],
  ] as const) {
    if (!Number.isFinite(value) || value < 0)
      throw new RangeError(`${what}.${name} must be a finite number >= 0, got ${value}`);
  }
  return { ms: delay.ms, jitterMs: delay.jitterMs ?? 0 };
}

interface Queued {
  readonly due: number;
  readonly action: () => void;
}

/**
 * Runs actions (socket writes, mostly) in the order they were queued, each no earlier than its
 * delay after it was queued. A later action never overtakes an earlier one, so a stream stays in
 * order whatever the jitter. One timer at most is pending; {@link DelayQueue.clear} cancels it.
 */
export class DelayQueue {
  readonly #delay: () => Delay;
  readonly #queue: Queued[] = [];
  #timer: NodeJS.Timeout | undefined;
  #lastDue = 0;

  /** @param delay - read for every action queued, so that a change applies to what comes next */
  constructor(delay: () => Delay) {
    this.#delay = delay;
  }

  /** Runs `action` after the current delay, or now when there is none and nothing is waiting. */
  run(action: () => void): void {
    const { ms, jitterMs = 0 } = this.#delay();
    const wait = ms + (jitterMs > 0 ? Math.random() * jitterMs : 0);
    if (wait <= 0 && this.#queue.length === 0) {
      action();
      return;
    }
    const due = Math.max(performance.now() + wait, this.#lastDue);
    this.#lastDue = due;
    this.#queue.push({ due, action });
    this.#schedule();
  }

  /** How many actions are waiting. */
  get pending(): number {
    return this.#queue.length;
  }

  /** `true` while a timer is pending. */
  get timing(): boolean {
    return this.#timer !== undefined;
  }

  /** Drops every waiting action and its timer. */
  clear(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#queue.length = 0;
  }

  #schedule(): void {
    const head = this.#queue[0];
    if (head === undefined || this.#timer !== undefined) return;
    this.#timer = setTimeout(() => this.#flush(), Math.max(0, head.due - performance.now()));
  }

  #flush(): void {
    this.#timer = undefined;
    const now = performance.now();
    while (this.#queue.length > 0 && (this.#queue[0]?.due ?? Infinity) <= now + 1) {
      this.#queue.shift()?.action();
    }
    this.#schedule();
  }
}
