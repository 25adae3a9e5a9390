import type { LimitChange, PermitInterval } from '../permitHistory.js';
import type { ExpirableStep } from './expirableSteps.js';
import type { StepOutcome } from './SemaphoreModel.js';

/**
 * A permit in the model: `held` (in `{name}:timeout`, its lease running), `expired` (its lease
 * ended: still in the set until an operation reclaims it, but held by nobody) or `gone`.
 */
export interface ModelPermit {
  readonly id: string;
  state: 'held' | 'expired' | 'gone';
  /** Its lease ends within the run (at the next `pass`). */
  short: boolean;
  readonly start: number;
  end: number;
}

/** An acquisition in the model: its permits (indexes), and what its `HeldExpirablePermits` knows. */
export interface ModelHolding {
  readonly permits: readonly number[];
  /** `release()` was called (it is not sent to Redis again). */
  released: boolean;
  /** Its signal aborted: its own fixed lease ended, or `updateLeaseTime` found a permit gone. */
  told: boolean;
  /** Its own lease, as its timer knows it, ends within the run. */
  short: boolean;
}

/**
 * The reference `PermitExpirableSemaphore` (Redisson's `RPermitExpirableSemaphore`): whether its
 * key exists, the permits free, every permit handed out with its state, every acquisition, and
 * the limit (the permits it was given). Time is the `pass` steps: a short lease ends at the next
 * one. An operation that reclaims (an acquisition, a release, `updateLeaseTime`,
 * `availablePermits`) first frees every expired permit, as the scripts do.
 */
export class ExpirableModel {
  exists = false;
  available = 0;
  limit = 0;
  readonly permits: ModelPermit[] = [];
  readonly holdings: ModelHolding[] = [];
  /**
   * Permits taken by acquisitions whose outcome their client never learned and whose give-back
   * could not reach Redis either (a cut, then a partition past their records): in
   * `{name}:timeout` under ids nobody holds (their `id` is the member as the driver decodes it),
   * until their lease ends.
   */
  readonly orphans: ModelPermit[] = [];
  readonly #limits: LimitChange[] = [];

  /** A copy to apply a step of unknown outcome to, without touching this one. */
  clone(): ExpirableModel {
    const copy = new ExpirableModel();
    copy.adopt(this);
    return copy;
  }

  /** Takes on `other`'s state (copied). */
  adopt(other: ExpirableModel): void {
    this.exists = other.exists;
    this.available = other.available;
    this.limit = other.limit;
    this.permits.splice(0, this.permits.length, ...other.permits.map((permit) => ({ ...permit })));
    this.holdings.splice(0, this.holdings.length, ...other.holdings.map((holding) => ({ ...holding })));
    this.orphans.splice(0, this.orphans.length, ...other.orphans.map((permit) => ({ ...permit })));
    this.#limits.splice(0, this.#limits.length, ...other.#limits);
  }

  /**
   * An acquisition whose outcome was unknown ran and was never given back: after reclaiming, its
   * permits (`members`, as Redis shows them) are held by nobody until their lease ends.
   */
  orphan(members: readonly string[], short: boolean, at: number): void {
    this.#reclaim();
    this.available -= members.length;
    for (const member of members) this.orphans.push({ id: member, state: 'held', short, start: at, end: Infinity });
  }

  /**
   * Such an acquisition's give-back reached Redis after all, late (a driver sends what it queued
   * once it reconnects; a give-back needs no deadline: it frees only what its attempt took): it
   * reclaims first, as every release does, then frees those of `members` still held: their grant
   * ends at step `at`, when it was seen to have landed.
   */
  giveBack(members: readonly string[], at: number): void {
    this.#reclaim();
    for (const permit of this.orphans) {
      if (permit.state !== 'held' || !members.includes(permit.id)) continue;
      permit.state = 'gone';
      permit.end = at;
      this.#add(1);
    }
  }

  /**
   * A `tryRelease(id)` of unknown outcome that Redis showed not run reached it after all, late (a
   * release carries no deadline: it frees only its own permit, once): it reclaims first, as every
   * release does, then frees permit `index` if it is still held.
   */
  releaseLate(index: number, at: number): void {
    this.#reclaim();
    this.#free(index, at);
  }

  /** What every reclaiming script does first (a request of unknown outcome that ran and gave back what it took did). */
  reclaim(): void {
    this.#reclaim();
  }

  /** Every permit handed out (and taken by nobody), with its interval in steps (`Infinity` while held): it ends when released or when its lease ended. */
  get grants(): readonly PermitInterval[] {
    return [...this.permits, ...this.orphans].map(({ id, start, end }) => ({ id, permits: 1, start, end }));
  }

  /** Every change of the limit, in steps. */
  get limits(): readonly LimitChange[] {
    return this.#limits;
  }

  /** How many permits are in `{name}:timeout`: held, or expired and not yet reclaimed. */
  get stored(): number {
    return [...this.permits, ...this.orphans].filter((permit) => permit.state !== 'gone').length;
  }

  /** The permit `pick` names (modulo their number), or `undefined` when none was handed out. */
  permitIndex(pick: number): number | undefined {
    return this.permits.length === 0 ? undefined : pick % this.permits.length;
  }

  /** The acquisition `pick` names (modulo their number), or `undefined` when none was made. */
  holdingIndex(pick: number): number | undefined {
    return this.holdings.length === 0 ? undefined : pick % this.holdings.length;
  }

  /** Applies `step`, taken at sequence number `at`, and returns what the real semaphore must reply. */
  apply(step: ExpirableStep, at: number): StepOutcome {
    switch (step.op) {
      case 'trySetPermits':
        if (this.exists) return 'false';
        this.#give(step.permits, at);
        return 'true';
      case 'addPermits':
        this.#give(step.permits, at);
        return 'done';
      case 'tryAcquire':
        this.#reclaim();
        return this.#take(step.permits, step.lease === 'short', at) ? `held:${step.permits}` : 'null';
      case 'availablePermits':
        return this.#read();
      case 'pass':
        this.#pass(at);
        return 'done';
      case 'inject':
        return this.apply(step.step, at);
      default:
        return this.#byPick(step, at);
    }
  }

  // The steps on an acquisition or a permit id: with none to pick, the real run reads the permits.
  #byPick(step: Extract<ExpirableStep, { readonly pick: number }>, at: number): StepOutcome {
    const byHolding = step.op === 'releaseHeld' || step.op === 'updateLeaseHeld';
    const index = byHolding ? this.holdingIndex(step.pick) : this.permitIndex(step.pick);
    if (index === undefined) return this.#read();
    switch (step.op) {
      case 'releaseHeld':
        return this.#releaseHolding(index, at);
      case 'updateLeaseHeld':
        return this.#updateHolding(index, step.lease === 'short');
      case 'releaseId':
        this.#reclaim();
        return String(this.#free(index, at));
      case 'updateLeaseId':
        this.#reclaim();
        return String(this.#setLease(index, step.lease === 'short'));
    }
  }

  #read(): StepOutcome {
    this.#reclaim();
    return `value:${this.exists ? this.available : 0}`;
  }

  #take(permits: number, short: boolean, at: number): boolean {
    if (!this.exists || this.available < permits) return false;
    this.available -= permits;
    const indexes = Array.from(
      { length: permits },
      () => this.permits.push({ id: `#${this.permits.length}`, state: 'held', short, start: at, end: Infinity }) - 1,
    );
    this.holdings.push({ permits: indexes, released: false, told: false, short });
    return true;
  }

  // `release()`: `LockNotHeldError` once called before, not sent again; else gives back those still
  // held, and rejects with the holding's `LockLostError` when its holder was told they were lost or
  // any of them was no longer held.
  #releaseHolding(index: number, at: number): StepOutcome {
    const holding = this.holdings[index] ?? fail(`no acquisition ${index}`);
    if (holding.released) return 'error:LockNotHeldError';
    holding.released = true;
    this.#reclaim();
    const freed = holding.permits.filter((permit) => this.#free(permit, at)).length;
    // A release that finds permits gone tells their holder (its signal aborts) as it rejects.
    if (freed < holding.permits.length) holding.told = true;
    return holding.told ? 'error:LockLostError' : 'done';
  }

  // `updateLeaseTime(ms)`: refused without Redis once released, rejected with the loss once told
  // (as a release is); all the permits or none.
  #updateHolding(index: number, short: boolean): StepOutcome {
    const holding = this.holdings[index] ?? fail(`no acquisition ${index}`);
    if (holding.released) return 'error:LockNotHeldError';
    if (holding.told) return 'error:LockLostError';
    this.#reclaim();
    if (!holding.permits.every((permit) => this.permits[permit]?.state === 'held')) {
      holding.told = true;
      return 'error:LockLostError';
    }
    for (const permit of holding.permits) this.#setLease(permit, short);
    holding.short = short;
    return 'done';
  }

  // Gives back one permit if it is held.
  #free(index: number, at: number): boolean {
    const permit = this.permits[index] ?? fail(`no permit ${index}`);
    if (permit.state !== 'held') return false;
    permit.state = 'gone';
    permit.end = at;
    this.#add(1);
    return true;
  }

  #setLease(index: number, short: boolean): boolean {
    const permit = this.permits[index] ?? fail(`no permit ${index}`);
    if (permit.state !== 'held') return false;
    permit.short = short;
    return true;
  }

  // Every short lease ends: its permits expire (held by nobody from now on) and holders whose own lease was short are told.
  #pass(at: number): void {
    for (const permit of [...this.permits, ...this.orphans]) {
      if (permit.state !== 'held' || !permit.short) continue;
      permit.state = 'expired';
      permit.end = at;
    }
    for (const holding of this.holdings) if (!holding.released && holding.short) holding.told = true;
  }

  // What every reclaiming script does first: expired permits go back to the free ones.
  #reclaim(): void {
    const expired = [...this.permits, ...this.orphans].filter((permit) => permit.state === 'expired');
    for (const permit of expired) permit.state = 'gone';
    if (expired.length > 0) this.#add(expired.length);
  }

  // INCRBY: creates a missing key.
  #add(permits: number): void {
    this.exists = true;
    this.available += permits;
  }

  // Permits the semaphore is given: set or added (a negative number takes some away).
  #give(permits: number, at: number): void {
    this.#add(permits);
    this.limit += permits;
    this.#limits.push({ at, limit: this.limit });
  }
}

function fail(message: string): never {
  throw new Error(message);
}
