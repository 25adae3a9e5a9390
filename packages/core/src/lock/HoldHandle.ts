import type { LockLostError } from '../errors/LockError.js';
import type { Renewal } from '../watchdog/RenewalScheduler.js';
// eslint-disable-next-line @typescript-eslint/no-unused-vars -- imported for the TSDoc {@link HeldLock} only
import type { HeldLock } from './HeldLock.js';

/**
 * What a {@link HeldLock} holds on to: one successful acquisition, and the operations on the hold
 * it took. For lock kind authors: the acquisition makes it and gives it to the kind's `held`.
 */
export interface HoldHandle {
  /** The lock's name. */
  readonly name: string;
  /** The owner id (the part after `<clientId>:` in the owner field). */
  readonly owner: string;
  /** The lease in milliseconds, or `undefined` when the watchdog renews the lock. */
  readonly leaseTime: number | undefined;
  /** When the acquire was sent, on the monotonic clock (`performance.now()`). */
  readonly acquiredAt: number;
  /** For a hold the watchdog keeps: how long it may last at most (`maxHoldTime`), if it has a limit. */
  readonly holdLimit?: HoldLimit | undefined;
  /**
   * Has the watchdog keep the hold alive from `from` (monotonic ms) on, telling `onLost` when it
   * is found gone or cannot be renewed in time. With `until`, the hold has a fixed lease ending
   * then: the watchdog only guards it up to then, for a kind whose hash other parties' holds share
   * and may shorten (a read lock), and does nothing (`undefined`) for other kinds.
   */
  keepAlive(onLost: (error: LockLostError) => void, from: number, until?: number): Renewal | undefined;
  /**
   * Releases this one hold. Resolves `true` when it was released, `false` when it did not stand.
   * Called again on a retry; a repeat is harmless. Reports nothing: the held lock reports how the
   * hold ended (`reportReleased` or `reportLost`).
   */
  release(): Promise<boolean>;
  /**
   * Sets a lease of `leaseTime` ms from now on this hold; resolves `false` when it did not stand.
   * Each call is a new request: one sent later wins over one sent earlier, whatever the order in
   * which they reach Redis.
   */
  extend(leaseTime: number): Promise<boolean>;
  /**
   * Tells the client the hold was lost (its `lockLost` event). Every hold ends in exactly one
   * `reportLost` or `reportReleased`: the held lock calls one of them, once.
   */
  reportLost?(error: LockLostError): void;
  /** Tells the client the hold was released (its `released` event); see `reportLost`. */
  reportReleased?(): void;
}

/** How long a hold the watchdog keeps may last at most. For lock kind authors. */
export interface HoldLimit {
  /** The longest the hold may last from its `acquiredAt`, in milliseconds: the `maxHoldTime` option. */
  readonly maxHoldTime: number;
  /** The lease each renewal sets (the client's `watchdogTimeout`): renewal stops this long before the limit. */
  readonly renewedLease: number;
}
