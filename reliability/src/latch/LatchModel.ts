import type { LatchStep } from './latchSteps.js';

/**
 * What a latch step came to, as a short string both sides produce alike: `true`/`false`,
 * `value:<n>` (a count read), `done` (nothing replied), `unknown` (Redis unreachable: the
 * request may or may not have run), `error:<name>` (any other error).
 */
export type LatchOutcome = string;

/**
 * The reference `CountDownLatch` (Redisson's `RCountDownLatch`, as Deadbolt's scripts keep it):
 * whether the latch has a count (its key exists) and the count. A latch without a count is open,
 * and so is one whose count is 0 (`trySetCount(0)` sets the key to 0, which reads as open).
 * `countDown` deletes the key once the count reaches zero (or falls below it, on a latch with no
 * count: nothing changes then).
 */
export class LatchModel {
  exists = false;
  count = 0;

  /** Whether the latch is open: no count, or a count of zero. */
  get open(): boolean {
    return !this.exists || this.count <= 0;
  }

  /** The key's value in Redis: `null` when it has no count. */
  get stored(): string | null {
    return this.exists ? String(this.count) : null;
  }

  /** A copy, to apply a step of unknown outcome to. */
  clone(): LatchModel {
    const copy = new LatchModel();
    copy.exists = this.exists;
    copy.count = this.count;
    return copy;
  }

  /** Takes on `other`'s state. */
  adopt(other: LatchModel): void {
    this.exists = other.exists;
    this.count = other.count;
  }

  /** Applies `step` and returns what the real latch must reply. */
  apply(step: LatchStep): LatchOutcome {
    switch (step.op) {
      case 'trySetCount':
        if (this.exists) return 'false';
        this.exists = true;
        this.count = step.count;
        return 'true';
      case 'countDown':
        if (this.exists) {
          this.count--;
          if (this.count <= 0) this.exists = false;
        }
        return 'done';
      case 'getCount':
        return `value:${this.exists ? this.count : 0}`;
      case 'await':
        return String(this.open);
      case 'delete': {
        const had = this.exists;
        this.exists = false;
        return String(had);
      }
      case 'waitInBackground':
        return 'waiting';
      case 'inject':
        return this.apply(step.step);
    }
  }
}
