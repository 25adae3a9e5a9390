// The semaphores the permit hammer and the permit model run, by id. Child processes import this
// module too and look a kind up by the id in their job. A kind is what the hammer needs of a
// semaphore: set its permits, read what is available, take some and give them back, add some.
// A kind whose permits have leases (`leased`) says so, and the hammer and the model check what
// leases promise instead of what a plain counter does.
import { LockLostError, LockNotHeldError, type LockClient } from '@deadbolt/core';
import { PermitExpirableSemaphore, Semaphore, type HeldExpirablePermits, type HeldPermits } from '@deadbolt/semaphore';

/** Permits one acquisition took, to give back once. */
export interface PermitHolding {
  readonly permits: number;
  /**
   * Gives the permits back: `true` the first time, `false` after, and for leased permits also
   * when any of them was no longer held (its lease ended). Rejects (with
   * `RedisUnavailableError`, say) when that may not have reached Redis, and for a Semaphore's
   * permits whose mark was gone, with `LockLostError`.
   */
  release(): Promise<boolean>;
  /** Leased permits only: aborts when their holder is told they are lost (their lease ended). */
  readonly signal?: AbortSignal;
}

/** How an acquisition asks for its permits. */
export interface PermitAcquireRequest {
  /** How long to wait for them, in ms. */
  readonly waitTime: number;
  /** Leased kinds only: a fixed lease in ms; without it the watchdog renews the permits. */
  readonly leaseTime?: number;
  /** Aborts the wait: it rejects with the signal's reason and takes nothing. */
  readonly signal?: AbortSignal;
}

/** A semaphore as the permit hammer drives it: what every kind has. */
export interface PermitSemaphore {
  /** Sets the permits of a semaphore that has none yet; `false` when it had some. */
  trySetPermits(permits: number): Promise<boolean>;
  /** The permits available now (0 without a key). */
  availablePermits(): Promise<number>;
  /** Adds permits, or takes some away with a negative number: also the operator's repair after a holder died with some. */
  addPermits(permits: number): Promise<void>;
  /** Takes `permits` all at once, waiting as long as `waitTime` ms; rejects with a `LockError` when it cannot. */
  acquire(permits: number, request: PermitAcquireRequest): Promise<PermitHolding>;
}

/** Redisson's `RSemaphore` API, as the permit model drives it. */
export interface CountingSemaphore extends PermitSemaphore {
  /** Takes every available permit, for nobody; resolves how many there were. */
  drainPermits(): Promise<number>;
  /** Adds `permits` that were taken elsewhere (0 does nothing). */
  release(permits: number): Promise<void>;
  /** Takes `permits` all at once if they are there now; `null` when too few are. */
  tryAcquire(permits: number): Promise<PermitHolding | null>;
}

/** A kind of semaphore without leases: a holder's permits stay taken until given back. */
export interface CountingPermitKind {
  readonly id: string;
  readonly leased: false;
  create(client: LockClient, name: string): CountingSemaphore;
}

/** A kind whose permits have leases and come back by themselves when a lease ends. */
export interface LeasedPermitKind {
  readonly id: string;
  readonly leased: true;
  create(client: LockClient, name: string): PermitSemaphore;
  /** The semaphore itself, for the model, which drives its whole API. */
  createExpirable(client: LockClient, name: string): PermitExpirableSemaphore;
}

/** A kind of semaphore: how to build one on a client. */
export type PermitKind = CountingPermitKind | LeasedPermitKind;

/** {@link PermitExpirableSemaphore} as a {@link PermitSemaphore}: its acquisitions' ids are kept inside. */
function expirablePermits(client: LockClient, name: string): PermitSemaphore {
  const semaphore = new PermitExpirableSemaphore(client, name);
  return {
    trySetPermits: (permits) => semaphore.trySetPermits(permits),
    availablePermits: () => semaphore.availablePermits(),
    addPermits: (permits) => semaphore.addPermits(permits),
    acquire: async (permits, { waitTime, leaseTime, signal }) =>
      leasedHolding(
        await semaphore.acquire(permits, {
          waitTime,
          ...(leaseTime === undefined ? {} : { leaseTime }),
          ...(signal === undefined ? {} : { signal }),
        }),
      ),
  };
}

/** A held acquisition of leased permits as a {@link PermitHolding}: a release that finds any of them gone says `false`. */
export function leasedHolding(held: HeldExpirablePermits): PermitHolding {
  return {
    permits: held.permits,
    signal: held.signal,
    release: () => releasedFirst(held, (error) => error instanceof LockLostError),
  };
}

/** A Semaphore's held permits as a {@link PermitHolding}: `false` for a second release. */
function countedHolding(held: HeldPermits): PermitHolding {
  return { permits: held.permits, release: () => releasedFirst(held, () => false) };
}

// `true` once released, `false` for a release made already or one `lapsed` says was told the
// permits were lost; any other rejection as it came.
async function releasedFirst(
  held: { release(): Promise<void> },
  lapsed: (error: unknown) => boolean,
): Promise<boolean> {
  try {
    await held.release();
    return true;
  } catch (error) {
    if (error instanceof LockNotHeldError || lapsed(error)) return false;
    throw error;
  }
}

/** {@link Semaphore} as a {@link CountingSemaphore}: its held permits as holdings. */
function countingPermits(client: LockClient, name: string): CountingSemaphore {
  const semaphore = new Semaphore(client, name);
  return {
    trySetPermits: (permits) => semaphore.trySetPermits(permits),
    availablePermits: () => semaphore.availablePermits(),
    addPermits: (permits) => semaphore.addPermits(permits),
    drainPermits: () => semaphore.drainPermits(),
    release: (permits) => semaphore.release(permits),
    acquire: async (permits, { waitTime, signal }) =>
      countedHolding(await semaphore.acquire(permits, { waitTime, ...(signal === undefined ? {} : { signal }) })),
    tryAcquire: async (permits) => {
      const held = await semaphore.tryAcquire(permits);
      return held && countedHolding(held);
    },
  };
}

/** Every semaphore kind the permit checks run. */
export const PERMIT_KINDS: readonly PermitKind[] = [
  { id: 'Semaphore', leased: false, create: countingPermits },
  {
    id: 'PermitExpirableSemaphore',
    leased: true,
    create: expirablePermits,
    createExpirable: (client, name) => new PermitExpirableSemaphore(client, name),
  },
];

/** The kind whose id is `id`; throws for an unknown one. */
export function permitKindById(id: string): PermitKind {
  const kind = PERMIT_KINDS.find((each) => each.id === id);
  if (kind === undefined) throw new Error(`no semaphore kind ${id}`);
  return kind;
}
