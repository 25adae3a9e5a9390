import { checkDuration } from '@deadbolt/core/kit';

/**
 * A wait time spent across several acquisitions: each member gets what is left, measured on the
 * monotonic clock so wall-clock jumps cannot stretch or cut it.
 */
export class WaitBudget {
  readonly #deadline: number;

  /** @param waitTime - the whole budget in milliseconds; `Infinity` for none */
  constructor(waitTime: number) {
    this.#deadline = performance.now() + checkDuration(waitTime, 'waitTime', { allowInfinity: true });
  }

  /**
   * Whole milliseconds left, never below zero, so that it can be passed on as a `waitTime`
   * (`Infinity` for an endless budget).
   */
  remaining(): number {
    return Math.max(0, Math.floor(this.#deadline - performance.now()));
  }

  /** Whether the budget is spent. */
  get exhausted(): boolean {
    return this.remaining() === 0;
  }
}
