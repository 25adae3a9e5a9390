import { ClientClosedError, LockLostError, type LockLossReason } from '../errors/LockError.js';
import { hashSlot } from '../keys/hashSlot.js';
import type { HoldInput } from '../commands/inputs.js';
import type { RenewCommand } from '../commands/renewBatch.js';
import { call, type Call } from '../scripts/Command.js';

/**
 * One hold for the watchdog to keep alive, and the command that renews it in batches with other
 * holds of its hash slot. Lock kinds with the same layout share a command. Each hold is renewed,
 * and found gone, on its own.
 */
export interface RenewalTarget extends HoldInput {
  readonly command: RenewCommand;
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

/** Told how each batch renewal went: for the client's `renewed` and `handledError` events. */
export interface BatchListener {
  /** `holds` were asked for in one call that took `tookMs`; `lost` of them were found gone. */
  renewed(holds: number, lost: number, tookMs: number): void;
  /** The batch could not reach Redis; it is retried. */
  failed(error: unknown): void;
}

/**
 * The watchdog. Keeps every registered hold alive by renewing its lease every third of it, with
 * one script call per slot (and lease) per tick for all holds together. A renewal only extends a
 * hold that still stands; when it is gone, or Redis cannot be reached before its lease ends, the
 * hold is told through its callback and dropped. Runs a timer only while
 * something is registered.
 */
export class RenewalScheduler {
  readonly #run: (batch: Call<boolean[]>) => Promise<boolean[]>;
  readonly #lease: number;
  readonly #interval: number;
  readonly #isCluster: boolean;
  readonly #onBatch: BatchListener | undefined;
  readonly #entries = new Map<string, Entry>();
  #timer: NodeJS.Timeout | undefined;
  #ticking = false;
  #stopped = false;

  /**
   * @param run - runs one batch renewal
   * @param options - the watchdog's lease, whether keys are spread over cluster slots, and whom
   *   to tell how each batch went (each lost hold is told through its own callback, and reports
   *   its loss itself)
   */
  constructor(
    run: (batch: Call<boolean[]>) => Promise<boolean[]>,
    options: {
      lease: number;
      isCluster: boolean;
      onBatch?: BatchListener;
    },
  ) {
    this.#run = run;
    this.#lease = options.lease;
    this.#interval = Math.max(1, Math.floor(options.lease / 3));
    this.#isCluster = options.isCluster;
    this.#onBatch = options.onBatch;
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
      command: target.command,
      name: target.name,
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
      const error = new LockLostError(`Lock "${entry.name}" is no longer renewed: its client was closed`, {
        lockName: entry.name,
        reason: 'clientClosed',
      });
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
    let failed: boolean;
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
      const group = `${entry.command.script.name}\n${this.#isCluster ? hashSlot(entry.name) : 0}\n${lease}`;
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
          this.#lose(
            entry,
            'unreachable',
            `Could not reach Redis to renew lock "${entry.name}" before its lease ended`,
            cause,
          );
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
      deadline = setTimeout(
        () => {
          unreachable(undefined);
          armDeadline();
        },
        Math.max(1, earliestEnd - margin - performance.now()),
      );
      deadline.unref();
    };
    armDeadline();
    let renewed: boolean[];
    try {
      renewed = await this.#run(call(first.command, { lease, holds: batch }));
    } catch (error) {
      unreachable(error);
      this.#onBatch?.failed(error);
      return false;
    } finally {
      clearTimeout(deadline);
    }
    this.#onBatch?.renewed(batch.length, renewed.filter((done) => done !== true).length, performance.now() - sentAt);
    batch.forEach((entry, index) => {
      if (renewed[index] === true) entry.coveredUntil = Math.max(entry.coveredUntil, sentAt + lease);
      // A hold that cancelled meanwhile (released, extended) is no longer this entry's to report:
      // #lose checks it.
      else this.#lose(entry, 'gone', `Lock "${entry.name}" was gone when the watchdog tried to renew it`);
    });
    return true;
  }

  #lose(entry: Entry, reason: LockLossReason, message: string, cause?: unknown): void {
    // A hold that was released while the renewal was in flight is no longer ours to report.
    if (this.#entries.get(entry.hold) !== entry) return;
    this.#entries.delete(entry.hold);
    entry.onLost(new LockLostError(message, { lockName: entry.name, cause, reason }));
    if (this.#entries.size === 0) this.#clearTimer();
  }
}
