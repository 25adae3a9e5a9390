import { LockLostError } from '../errors/LockError.js';
import { hashSlot } from '../keys/hashSlot.js';
import type { Script } from '../scripts/Script.js';
import type { ScriptRunner } from '../scripts/ScriptRunner.js';

/**
 * One held lock hold for the watchdog to keep alive. `script` renews a batch: KEYS are lock keys
 * of one slot, ARGV[1] the lease, ARGV[i+1] the owner field for KEYS[i]; it replies with an
 * array of 1 (renewed) or 0 (gone) per key. Lock kinds with the same layout share a script.
 */
export interface RenewalTarget {
  readonly script: Script;
  readonly key: string;
  readonly field: string;
}

/** A registration with the watchdog; cancel it before releasing the lock. */
export interface Renewal {
  /** Stops renewing for this holder at once; idempotent. */
  cancel(): void;
}

interface Entry extends RenewalTarget {
  readonly id: string;
  readonly holders: Set<(error: LockLostError) => void>;
  /** When the last renewal (or the acquisition) that succeeded was sent, on the monotonic clock. */
  renewedAt: number;
}

// Keys per script call: bounds the time one batch holds the server.
const BATCH = 500;
// After a failed tick, how soon to try again while the lease lasts.
const RETRY_DELAY = 1000;

/**
 * The watchdog. Keeps every registered lock alive by renewing its lease every third of it, with
 * one script call per slot per tick for all held locks together. A renewal only extends a lock
 * the owner still holds; when a lock is gone, or Redis cannot be reached before its lease ends,
 * every holder is told through its callback and the lock is dropped. Runs a timer only while
 * something is registered.
 */
export class RenewalScheduler {
  readonly #runner: ScriptRunner;
  readonly #lease: number;
  readonly #interval: number;
  readonly #isCluster: boolean;
  readonly #onLost: (target: RenewalTarget, error: LockLostError) => void;
  readonly #entries = new Map<string, Entry>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #stopped = false;

  constructor(
    runner: ScriptRunner,
    options: { lease: number; isCluster: boolean; onLost: (target: RenewalTarget, error: LockLostError) => void },
  ) {
    this.#runner = runner;
    this.#lease = options.lease;
    this.#interval = Math.max(1, Math.floor(options.lease / 3));
    this.#isCluster = options.isCluster;
    this.#onLost = options.onLost;
  }

  /** The lease every renewal sets, in milliseconds. */
  get lease(): number {
    return this.#lease;
  }

  /** How many distinct lock holds are being renewed. */
  get size(): number {
    return this.#entries.size;
  }

  /**
   * Starts renewing `target`, acquired at `acquiredAt` (monotonic ms, taken before the acquire
   * was sent). Holds of the same owner on the same lock share one renewal.
   */
  register(target: RenewalTarget, onLost: (error: LockLostError) => void, acquiredAt: number): Renewal {
    if (this.#stopped) throw new Error('RenewalScheduler is stopped');
    const id = `${target.script.name}\n${target.key}\n${target.field}`;
    let entry = this.#entries.get(id);
    if (!entry) {
      // Fields copied one by one: an object spread here cost a few microseconds per acquisition.
      entry = { script: target.script, key: target.key, field: target.field, id, holders: new Set(), renewedAt: acquiredAt };
      this.#entries.set(id, entry);
    } else {
      // A re-entry reset the lease too.
      entry.renewedAt = Math.max(entry.renewedAt, acquiredAt);
    }
    const holder = (error: LockLostError) => onLost(error);
    entry.holders.add(holder);
    this.#schedule(this.#interval, false);
    const owned = entry;
    return {
      cancel: () => {
        if (!owned.holders.delete(holder) || owned.holders.size > 0) return;
        if (this.#entries.get(owned.id) === owned) this.#entries.delete(owned.id);
        if (this.#entries.size === 0) this.#clearTimer();
      },
    };
  }

  /**
   * Stops all renewal for good (the client is closing): held locks then expire by their lease,
   * and their holders are told now, while they can still stop their work in time.
   */
  stop(): void {
    this.#stopped = true;
    this.#clearTimer();
    const entries = [...this.#entries.values()];
    this.#entries.clear();
    for (const entry of entries) {
      const error = new LockLostError(`Lock "${entry.key}" is no longer renewed: its client was closed`, { lockName: entry.key });
      for (const holder of entry.holders) holder(error);
    }
  }

  #schedule(delay: number, replace: boolean): void {
    if (this.#stopped || this.#ticking || this.#entries.size === 0) return;
    if (this.#timer && !replace) return;
    this.#clearTimer();
    this.#timer = setTimeout(() => void this.#tick(), delay);
    // Renewal alone must not keep a process alive that has nothing else to do.
    this.#timer.unref();
  }

  #clearTimer(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  async #tick(): Promise<void> {
    this.#timer = undefined;
    this.#ticking = true;
    let failed = false;
    try {
      const batches = [...this.#batches()];
      const outcomes = await Promise.all(batches.map((batch) => this.#renew(batch)));
      failed = outcomes.includes(false);
    } finally {
      this.#ticking = false;
    }
    this.#schedule(failed ? Math.min(RETRY_DELAY, this.#interval) : this.#interval, true);
  }

  *#batches(): Generator<Entry[]> {
    const groups = new Map<string, Entry[]>();
    for (const entry of this.#entries.values()) {
      const group = `${entry.script.name}\n${this.#isCluster ? hashSlot(entry.key) : 0}`;
      let list = groups.get(group);
      if (!list) groups.set(group, (list = []));
      list.push(entry);
      if (list.length === BATCH) {
        yield list;
        groups.delete(group);
      }
    }
    yield* groups.values();
  }

  /** Renews one batch; resolves `false` when Redis could not be reached. */
  async #renew(batch: Entry[]): Promise<boolean> {
    const sentAt = performance.now();
    const [first] = batch;
    if (!first) return true;
    const margin = Math.min(RETRY_DELAY, this.#interval);
    const unreachable = (cause: unknown) => {
      const giveUpAt = performance.now() + margin;
      for (const entry of batch) {
        if (entry.renewedAt + this.#lease <= giveUpAt) {
          this.#lose(entry, `Could not reach Redis to renew lock "${entry.key}" before its lease ended`, cause);
        }
      }
    };
    // A call that hangs (Redis partitioned, a long commandTimeout) must not keep holders from
    // learning, before their lease ends, that it could not be renewed. The timer is armed again
    // after it fires, for the holds it did not give up yet: a timer can fire a little early.
    let deadline: NodeJS.Timeout | undefined;
    const armDeadline = () => {
      const live = batch.filter((entry) => this.#entries.get(entry.id) === entry);
      if (live.length === 0) return;
      const earliestEnd = Math.min(...live.map((entry) => entry.renewedAt)) + this.#lease;
      deadline = setTimeout(() => {
        unreachable(undefined);
        armDeadline();
      }, Math.max(1, earliestEnd - margin - performance.now()));
      deadline.unref();
    };
    armDeadline();
    let reply: unknown;
    try {
      reply = await this.#runner.run(
        first.script,
        batch.map((entry) => entry.key),
        [this.#lease, ...batch.map((entry) => entry.field)],
      );
    } catch (error) {
      unreachable(error);
      return false;
    } finally {
      clearTimeout(deadline);
    }
    const renewed = Array.isArray(reply) ? reply : [];
    batch.forEach((entry, index) => {
      if (Number(renewed[index]) === 1) entry.renewedAt = Math.max(entry.renewedAt, sentAt);
      // A re-entry after this call was sent renewed the lock itself; this reply predates it.
      else if (entry.renewedAt <= sentAt) this.#lose(entry, `Lock "${entry.key}" was gone when the watchdog tried to renew it`);
    });
    return true;
  }

  #lose(entry: Entry, message: string, cause?: unknown): void {
    // A holder that released while the renewal was in flight is no longer ours to report.
    if (this.#entries.get(entry.id) !== entry) return;
    this.#entries.delete(entry.id);
    const error = new LockLostError(message, { lockName: entry.key, cause });
    for (const holder of entry.holders) holder(error);
    try {
      this.#onLost(entry, error);
    } catch (listenerError) {
      // A throwing `lockLost` listener must not stop the watchdog for every other lock.
      process.emitWarning(listenerError instanceof Error ? listenerError : String(listenerError), 'DeadboltLockLostListenerError');
    }
    if (this.#entries.size === 0) this.#clearTimer();
  }
}
