import type { LimitChange, PermitInterval } from '../permitHistory.js';
import type { SemaphoreStep } from './semaphoreSteps.js';

/**
 * What a step came to, as a short string both sides produce alike: `held:<n>` (permits taken),
 * `null` (tryAcquire found too few), `timeout` (`PermitWaitTimeoutError`), `true`/`false`,
 * `value:<n>` (a number replied), `done` (nothing replied), `error:<name>` (any other error).
 */
export type StepOutcome = string;

/** One grant in the model: the permits it took, and whether `release()` was called. */
interface ModelGrant {
  readonly id: string;
  readonly permits: number;
  readonly start: number;
  end: number;
}

/**
 * The reference semaphore (Redisson's `RSemaphore` semantics): whether its key exists, the
 * permits available, the grants held and the limit (the permits it was given: set, added,
 * released, taken away, drained). A step is applied once, at its sequence number, and returns
 * the outcome the real semaphore must have.
 */
export class SemaphoreModel {
  exists = false;
  available = 0;
  limit = 0;
  /**
   * Permits taken by acquisitions whose outcome their client never learned and whose give-back
   * could not reach Redis either (a cut, then a partition past their records): marked held in
   * `deadbolt_holds:{name}` under a hold id nobody has, for good, as a dead holder's are.
   */
  orphaned = 0;
  readonly #grants: ModelGrant[] = [];
  readonly #limits: LimitChange[] = [];

  /** A copy to apply a step of unknown outcome to, without touching this one. */
  clone(): SemaphoreModel {
    const copy = new SemaphoreModel();
    copy.exists = this.exists;
    copy.available = this.available;
    copy.limit = this.limit;
    copy.orphaned = this.orphaned;
    copy.#grants.push(...this.#grants.map((grant) => ({ ...grant })));
    copy.#limits.push(...this.#limits);
    return copy;
  }

  /** Takes on `other`'s state (a clone a step of unknown outcome was applied to, found to be Redis's). */
  adopt(other: SemaphoreModel): void {
    this.exists = other.exists;
    this.available = other.available;
    this.limit = other.limit;
    this.orphaned = other.orphaned;
    this.#grants.splice(0, this.#grants.length, ...other.#grants);
    this.#limits.splice(0, this.#limits.length, ...other.#limits);
  }

  /** An acquisition of `permits` whose outcome was unknown ran, and its give-back did not: they stay taken, by nobody. */
  orphan(permits: number): void {
    this.available -= permits;
    this.orphaned += permits;
  }

  /**
   * Such an acquisition's give-back reached Redis after all, late (a driver sends what it queued
   * once it reconnects; a give-back needs no deadline: it frees only what its attempt took).
   */
  giveBack(permits: number): void {
    this.available += permits;
    this.orphaned -= permits;
  }

  /** Every grant taken so far, in order, with its interval in steps (`Infinity` while held). */
  get grants(): readonly PermitInterval[] {
    return this.#grants.map(({ id, permits, start, end }) => ({ id, permits, start, end }));
  }

  /** Every change of the limit, in steps. */
  get limits(): readonly LimitChange[] {
    return this.#limits;
  }

  /** The permits of grants not released. */
  get held(): number {
    return this.#grants.filter((grant) => grant.end === Infinity).reduce((sum, grant) => sum + grant.permits, 0);
  }

  /** Applies `step`, taken at sequence number `at`, and returns what the real semaphore must reply. */
  apply(step: SemaphoreStep, at: number): StepOutcome {
    switch (step.op) {
      case 'trySetPermits':
        if (this.exists) return 'false';
        this.#add(step.permits, at);
        return 'true';
      case 'tryAcquire':
        return this.#take(step.permits, at) ? `held:${step.permits}` : 'null';
      case 'acquire':
        return this.#take(step.permits, at) ? `held:${step.permits}` : 'timeout';
      case 'releaseHeld':
        return this.#releaseGrant(step.pick, at);
      case 'release':
      case 'addPermits':
        if (step.permits !== 0 || step.op === 'addPermits') this.#add(step.permits, at);
        return 'done';
      case 'drainPermits':
        return `value:${this.#drain(at)}`;
      case 'availablePermits':
        return `value:${this.available}`;
      case 'inject':
        return this.apply(step.step, at);
    }
  }

  /** The grant `releaseHeld` with `pick` releases; `undefined` when none was taken. */
  grantIndex(pick: number): number | undefined {
    return this.#grants.length === 0 ? undefined : pick % this.#grants.length;
  }

  // Takes `permits` if there are enough: all or none. 0 is always granted, without Redis.
  #take(permits: number, at: number): boolean {
    if (permits > 0 && (!this.exists || this.available < permits)) return false;
    this.available -= permits;
    this.#grants.push({ id: `#${this.#grants.length}`, permits, start: at, end: Infinity });
    return true;
  }

  #releaseGrant(pick: number, at: number): StepOutcome {
    const index = this.grantIndex(pick);
    const grant = index === undefined ? undefined : this.#grants[index];
    if (grant === undefined) return `value:${this.available}`;
    if (grant.end !== Infinity) return 'false';
    grant.end = at;
    if (grant.permits > 0) this.#add(grant.permits, at, false);
    return 'true';
  }

  // Adds permits (INCRBY creates a missing key); `given`: they raise the limit too.
  #add(permits: number, at: number, given = true): void {
    this.exists = true;
    this.available += permits;
    if (given) this.#setLimit(this.limit + permits, at);
  }

  #drain(at: number): number {
    if (!this.exists) return 0;
    const drained = this.available;
    this.available = 0;
    this.#setLimit(this.limit - drained, at);
    return drained;
  }

  #setLimit(limit: number, at: number): void {
    this.limit = limit;
    this.#limits.push({ at, limit });
  }
}
