import { ClientClosedError, LockLostError } from '../errors/LockError.js';
import { hashSlot } from '../keys/hashSlot.js';
import type { Script } from '../scripts/Script.js';
import type { ScriptRunner } from '../scripts/ScriptRunner.js';

/**
 * One held lock hold for the watchdog to keep alive. `script` renews a batch: KEYS are lock keys
 * of one slot, ARGV[1] the lease, ARGV[2i] the hold field and ARGV[2i+1] the hold id for KEYS[i];
 * it replies with an array of 1 (renewed) or 0 (gone) per key. Lock kinds with the same layout
 * share a script.
 */
export interface RenewalTarget {
  readonly script: Script;
  readonly key: string;
  readonly field: string;
  /** The hold id: each hold is renewed, and found gone, on its own. */
  readonly hold: string;
}

/** A registration with the watchdog; cancel it before releasing the lock. */
export interface Renewal {
  /** Stops renewing for this holder at once; idempotent. */
  cancel(): void;
}

interface Entry extends RenewalTarget {
  /** Tells the hold it is lost. */
  readonly onLost: (error: LockLostError) => void;
  /** The end of a guarded hold's fixed lease, on the monotonic clock; `undefined`: renewed without end. */
  readonly until: number | undefined;
  /** Until when Redis is known to keep the lock, on the monotonic clock (from when the call was sent). */
  coveredUntil: number;
}

/** A batch of entries renewed with one call: same script, same slot, same lease. */
interface Batch {
  readonly lease: number;
  readonly entries: Entry[];
}

// Keys per script call: bounds the time one batch holds the server.
const BATCH = 500;
// After a failed tick, how soon to try again while the lease lasts.
const RETRY_DELAY = 1000;

/**
 * The watchdog. Keeps every registered hold alive by renewing its lease every third of it, with
 * one script call per slot (and lease) per tick for all holds together. A renewal only extends a
 * hold that still stands; when it is gone, or Redis cannot be reached before its lease ends, the
 * hold is told through its callback and dropped. Runs a timer only while
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
   * was sent). Each hold is renewed on its own (a force-unlocked hold stays lost even when its
   * owner takes the lock again), in the same batches.
   *
   * With `until` (monotonic ms), the hold has a fixed lease ending then, and is only guarded:
   * each tick makes Redis keep it at least until then and never longer, because something else
   * may shorten what it shares (Redisson's read-lock watchdog sets every reader's lease to its
   * own, and stops when its process dies).
   */
  register(target: RenewalTarget, onLost: (error: LockLostError) => void, acquiredAt: number, until?: number): Renewal {
    if (this.#stopped) throw new ClientClosedError();
    // Fields copied one by one: an object spread here cost a few microseconds per acquisition.
    const entry: Entry = {
      script: target.script,
      key: target.key,
      field: target.field,
      hold: target.hold,
      onLost,
      until,
      coveredUntil: until ?? acquiredAt + this.#lease,
    };
    // Hold ids are never reused, and a hold cancels before it registers again (extend).
    this.#entries.set(target.hold, entry);
    this.#schedule(this.#interval, false);
    return {
      cancel: () => {
        if (this.#entries.get(entry.hold) !== entry) return;
        this.#entries.delete(entry.hold);
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
      entry.onLost(error);
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
      const batches = [...this.#batches(performance.now())];
      const outcomes = await Promise.all(batches.map((batch) => this.#renew(batch)));
      failed = outcomes.includes(false);
    } finally {
      this.#ticking = false;
    }
    this.#schedule(failed ? Math.min(RETRY_DELAY, this.#interval) : this.#interval, true);
  }

  *#batches(now: number): Generator<Batch> {
    const groups = new Map<string, Batch>();
    for (const entry of this.#entries.values()) {
      const lease = this.#leaseOf(entry, now);
      // A guarded hold whose lease has ended is its holder's to report (its lease timer).
      if (lease <= 0) continue;
      const group = `${entry.script.name}\n${this.#isCluster ? hashSlot(entry.key) : 0}\n${lease}`;
      let batch = groups.get(group);
      if (!batch) groups.set(group, (batch = { lease, entries: [] }));
      batch.entries.push(entry);
      if (batch.entries.length === BATCH) {
        yield batch;
        groups.delete(group);
      }
    }
    yield* groups.values();
  }

  // The watchdog's lease for a hold renewed without end; a guarded hold's up to the end of its
  // fixed lease, never beyond.
  #leaseOf(entry: Entry, now: number): number {
    return entry.until === undefined ? this.#lease : Math.ceil(entry.until - now);
  }

  /** Renews one batch; resolves `false` when Redis could not be reached. */
  async #renew({ lease, entries: batch }: Batch): Promise<boolean> {
    const sentAt = performance.now();
    const [first] = batch;
    if (!first) return true;
    const margin = Math.min(RETRY_DELAY, this.#interval);
    const unreachable = (cause: unknown) => {
      const giveUpAt = performance.now() + margin;
      for (const entry of batch) {
        if (entry.coveredUntil <= giveUpAt) {
          this.#lose(entry, `Could not reach Redis to renew lock "${entry.key}" before its lease ended`, cause);
        }
      }
    };
    // A call that hangs (Redis partitioned, a long commandTimeout) must not keep holders from
    // learning, before their lease ends, that it could not be renewed. The timer is armed again
    // after it fires, for the holds it did not give up yet: a timer can fire a little early.
    let deadline: NodeJS.Timeout | undefined;
    const armDeadline = () => {
      const live = batch.filter((entry) => this.#entries.get(entry.hold) === entry);
      if (live.length === 0) return;
      const earliestEnd = Math.min(...live.map((entry) => entry.coveredUntil));
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
        [lease, ...batch.flatMap((entry) => [entry.field, entry.hold])],
      );
    } catch (error) {
      unreachable(error);
      return false;
    } finally {
      clearTimeout(deadline);
    }
    const renewed = Array.isArray(reply) ? reply : [];
    batch.forEach((entry, index) => {
      if (Number(renewed[index]) === 1) entry.coveredUntil = Math.max(entry.coveredUntil, sentAt + lease);
      // A hold that cancelled meanwhile (released, extended) is no longer this entry's to report:
      // #lose checks it.
      else this.#lose(entry, `Lock "${entry.key}" was gone when the watchdog tried to renew it`);
    });
    return true;
  }

  #lose(entry: Entry, message: string, cause?: unknown): void {
    // A hold that was released while the renewal was in flight is no longer ours to report.
    if (this.#entries.get(entry.hold) !== entry) return;
    this.#entries.delete(entry.hold);
    const error = new LockLostError(message, { lockName: entry.key, cause });
    entry.onLost(error);
    try {
      this.#onLost(entry, error);
    } catch (listenerError) {
      // A throwing `lockLost` listener must not stop the watchdog for every other lock.
      process.emitWarning(listenerError instanceof Error ? listenerError : String(listenerError), 'DeadboltLockLostListenerError');
    }
    if (this.#entries.size === 0) this.#clearTimer();
  }
}
