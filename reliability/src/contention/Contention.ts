import type { BackendContext } from '@deadbolt/conformance';
import { exclusiveRole, type ConformantLock, type LockSubject } from '@deadbolt/conformance/kinds';
import { LockError, type HeldLock, type LockClient, type LockClientOptions } from '@deadbolt/core';
import { sleep } from '@deadbolt/test-harness';
import { findOverlaps, type HoldInterval, type Overlap } from '../hammer/overlaps.js';
import type { ReliabilityKind } from '../kinds.js';

/** How one waiter's wait ended. */
export interface WaitOutcome {
  readonly subject: string;
  /** The hold it got, as a working interval (`performance.now()` ms); `undefined` when it got none. */
  readonly interval: HoldInterval | undefined;
  /** The name of the error its wait ended with; `undefined` when it got the lock. */
  readonly error: string | undefined;
  /** Whether that error is one of Deadbolt's typed errors (a `LockError`). */
  readonly typed: boolean;
}

/** Options of {@link Contention.start}. */
export interface ContentionOptions {
  readonly subjects: readonly LockSubject<ReliabilityKind>[];
  /** Options of both the holder's and the waiters' lock clients. */
  readonly clientOptions: LockClientOptions;
  readonly waitersPerLock: number;
  readonly waitTime: number;
  /** A fixed lease for the holds; the watchdog keeps them when absent. */
  readonly leaseTime?: number;
  /** Names the locks with one hash tag, so that a cluster keeps them all on one master. */
  readonly oneSlot?: boolean;
}

// How long each waiter keeps the lock once it has it.
const WAITER_HOLD_MS = 20;

/**
 * In the test process: a holder client holding a lock of each subject, and a waiter client with
 * several waiters on each (in the kind's exclusive role) that take the lock in turn once it is
 * free, each for a moment. Faults are injected meanwhile; every waiter's outcome is recorded.
 */
export class Contention {
  readonly holder: LockClient;
  readonly waiter: LockClient;
  /**
   * The holder's holds, in subject order: `requested` is when the acquisition was sent, `start`
   * when it was granted (`performance.now()` ms). A fixed lease ends no earlier than `requested`
   * plus the lease.
   */
  readonly holds: readonly {
    readonly subject: LockSubject<ReliabilityKind>;
    readonly held: HeldLock;
    readonly requested: number;
    readonly start: number;
    readonly observer: ConformantLock;
  }[];
  readonly #leaseTime: number;
  readonly #waits: readonly Promise<WaitOutcome>[];
  #holdEnd = Infinity;

  private constructor(
    holder: LockClient,
    waiter: LockClient,
    holds: Contention['holds'],
    waits: readonly Promise<WaitOutcome>[],
    leaseTime: number,
  ) {
    this.#leaseTime = leaseTime;
    this.holder = holder;
    this.waiter = waiter;
    this.holds = holds;
    this.#waits = waits;
  }

  /** Takes the locks in a holder client, then starts the waiters in a waiter client. */
  static async start(ctx: BackendContext, options: ContentionOptions): Promise<Contention> {
    const [holder, waiter] = [await ctx.client(options.clientOptions), await ctx.client(options.clientOptions)];
    const tag = options.oneSlot ? `{${ctx.uniqueName('slot')}}:` : '';
    const holds = await Promise.all(
      options.subjects.map(async (subject) => {
        const name = `${tag}${ctx.uniqueName(subject.label)}`;
        const observer = subject.kind.create([holder], name, subject.role.name);
        const acquireOptions = options.leaseTime === undefined ? {} : { leaseTime: options.leaseTime };
        const requested = performance.now();
        const held = await observer.acquire(acquireOptions);
        return { subject, held, requested, start: performance.now(), observer };
      }),
    );
    const waits = holds.flatMap(({ subject, held }, index) =>
      Array.from({ length: options.waitersPerLock }, (_, number) =>
        waitFor(
          subject.kind.create([waiter], held.name, exclusiveRole(subject.kind).name),
          subject,
          `waiter-${index}-${number}`,
          options.waitTime,
        ),
      ),
    );
    return new Contention(holder, waiter, holds, waits, options.leaseTime ?? Infinity);
  }

  /** Releases every hold of the holder; resolves each release's outcome (`released` or an error name). */
  async releaseHolds(): Promise<string[]> {
    this.#holdEnd = performance.now();
    return Promise.all(
      this.holds.map(({ held }) =>
        held.release().then(
          () => 'released',
          (error: unknown) => (error instanceof Error ? error.name : String(error)),
        ),
      ),
    );
  }

  /** Every waiter's outcome, once all have settled. */
  settled(): Promise<WaitOutcome[]> {
    return Promise.all(this.#waits);
  }

  /** Waiters that have already got their lock. */
  async acquiredSoFar(): Promise<number> {
    const pending = Symbol('pending');
    const states = await Promise.all(this.#waits.map((wait) => Promise.race([wait, Promise.resolve(pending)])));
    return states.filter((state) => state !== pending && state.interval !== undefined).length;
  }

  /**
   * Overlapping holds among the waiters, and between the waiters and the holder's holds that
   * `kept` says the holder kept to the end (a hold lost to a server restarted empty or a failover
   * that lost writes ended earlier than its holder knew).
   */
  async overlaps(kept: (hold: HeldLock) => boolean): Promise<Overlap[]> {
    const waiterHolds = (await this.settled()).flatMap(({ interval }) => (interval === undefined ? [] : [interval]));
    const holderHolds: HoldInterval[] = this.holds
      .filter(({ held }) => kept(held))
      .map(({ held, requested, start, subject }) => ({
        lock: held.name,
        owner: `holder:${held.owner}`,
        pid: process.pid,
        exclusive: subject.role.exclusive,
        start,
        end: Math.min(this.#holdEnd, requested + this.#leaseTime),
      }));
    return findOverlaps([...waiterHolds, ...holderHolds], [], 0);
  }
}

async function waitFor(
  lock: ConformantLock,
  subject: LockSubject<ReliabilityKind>,
  owner: string,
  waitTime: number,
): Promise<WaitOutcome> {
  try {
    const held = await lock.acquire({ waitTime });
    const start = performance.now();
    await sleep(WAITER_HOLD_MS);
    const end = performance.now();
    await held.release();
    return {
      subject: subject.label,
      interval: { lock: lock.name, owner, pid: process.pid, exclusive: true, start, end },
      error: undefined,
      typed: false,
    };
  } catch (error) {
    return {
      subject: subject.label,
      interval: undefined,
      error: error instanceof Error ? error.name : String(error),
      typed: error instanceof LockError,
    };
  }
}
