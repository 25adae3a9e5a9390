import { InvalidArgumentError, type LockLostError } from '../errors/LockError.js';
import type { LockEvents } from '../client/LockEvents.js';
import type { SyncedOperation } from '../errors/ReplicaSyncError.js';
import type { ChannelMark, ChannelSubscription } from '../pubsub/ChannelHub.js';
import type { WakeRule } from '../pubsub/WakeRule.js';
import type { Call } from '../scripts/Command.js';
import type { Renewal, RenewalTarget } from '../watchdog/RenewalScheduler.js';

/**
 * What a lock kind may use of the client it runs on, and nothing more: run commands, make ids,
 * wait on channels, keep holds alive. A `LockClient` provides it; get it with
 * {@link lockRuntime}. For lock kind authors.
 */
export interface LockRuntime {
  /** The client's id: the first half of every owner field it writes. */
  readonly clientId: string;
  /** The lease a hold taken without `leaseTime` gets, renewed by the watchdog: `watchdogTimeout`. */
  readonly watchdogTimeout: number;
  /**
   * How long an `acquire` or `withLock` that gives no `waitTime` waits: the client's
   * `defaultWaitTime`, `Infinity` without it. Every kind resolves its wait from this.
   */
  readonly defaultWaitTime: number;
  /** `true` once the client is closing. */
  readonly closed: boolean;
  /** Throws `ClientClosedError` once the client is closing. */
  assertOpen(): void;
  /**
   * Runs a command. Rejects with `RedisUnavailableError` when Redis cannot be reached or does not
   * answer within `commandTimeout`, and with `LockError` when Redis rejects the script. A call that
   * timed out may still run later (drivers queue commands while disconnected): its decoded reply
   * then goes to `onLateReply`, so that an acquisition nobody waits for can be given back.
   */
  run<Reply>(call: Call<Reply>, onLateReply?: (reply: Reply) => void): Promise<Reply>;
  /**
   * Runs a command whose script counts it once per request id (`once()` of
   * `coreLua.requestDeadline`, or a release by hold id), sending it again after
   * `RedisUnavailableError` a few times, within `commandTimeout` of the first send, while the
   * client is open: a try that did run makes the next one answer its outcome, so a caller learns
   * the outcome where it can. Rejects with the last error otherwise.
   */
  runOnce<Reply>(call: Call<Reply>): Promise<Reply>;
  /**
   * Runs a release by hold id that nobody awaits (a give-back of an acquisition whose outcome was
   * not learned, or that nobody will keep) as {@link LockRuntime.runOnce} does, and resolves
   * then; when Redis is still away after that, goes on sending it in the background, with pauses
   * growing up to `commandTimeout`, until it lands or the client closes: a release by hold id
   * changes nothing twice whenever it arrives, and what it gives back would otherwise stay taken
   * (a semaphore's permits for good). A failure that ends it is given to `failed`.
   */
  giveBack(call: Call<unknown>, failed: (error: unknown) => void): Promise<void>;
  /**
   * Waits until the client's `replicaSync` replicas acknowledge every write made so far to `name`
   * (a lock, semaphore or latch), the `operation` just done there included; `undefined` when
   * replica sync is off, so that a kind sends nothing then. Call it after a write succeeded; after
   * an acquisition, the kit's `confirmOrGiveBack` also gives back what replicas lack.
   * Rejects with `ReplicaSyncError` when too few acknowledged, `RedisUnavailableError` when the
   * wait itself failed.
   */
  readonly confirmReplicas: ((name: string, operation: SyncedOperation) => Promise<void>) | undefined;
  /**
   * A fresh owner id for an acquisition that names none and runs outside a `withLock` scope:
   * `#<n>`, unique in the process, in a namespace that owner names given by users cannot enter.
   */
  newOwnerId(): string;
  /**
   * A fresh hold id, `<instance>:<n>`, for one acquisition attempt: the hold it takes is marked
   * with it, and later released and extended by it. `<instance>` is random per client object, so
   * clients that share a `clientId` on purpose never issue the same id.
   */
  newHoldId(): string;
  /** Tells the client's listeners what locks do (`LockClientEvents`); check `listening` before building a payload. */
  readonly events: LockEvents;
  /**
   * Joins a wait channel, shared by every local waiter on it. `wakes` says what its messages mean
   * (default: the locks' `0` wakes one, `1` wakes all).
   */
  join(channel: string, wakes?: WakeRule): Promise<ChannelSubscription>;
  /**
   * What a wait channel has delivered so far, when the client's subscription to it is confirmed
   * (else `undefined`). Taken before a first attempt: after joining, `missedNothingSince(mark)`
   * tells whether a second attempt could find anything new.
   */
  channelMark(channel: string): ChannelMark | undefined;
  /**
   * Has the watchdog keep `target` alive from `acquiredAt` (monotonic ms) on, telling `onLost`
   * when it is found gone or cannot be renewed in time. With `until`, only guards a fixed lease up
   * to then (see `RenewalScheduler.register`).
   */
  keepAlive(target: RenewalTarget, onLost: (error: LockLostError) => void, acquiredAt: number, until?: number): Renewal;
}

/**
 * The key of the method that hands a client's {@link LockRuntime} out. A global symbol, so that a
 * client made by one copy of `@deadbolt/core` (its ESM build, say) serves a lock kind loaded with
 * another (the CJS build).
 */
export const LOCK_RUNTIME: unique symbol = Symbol.for('@deadbolt/core.runtime');

/** What a lock runs on: a `LockClient`. */
export interface LockHost {
  /** The client's id. */
  readonly id: string;
  /** Hands out the runtime. For lock kinds, through {@link lockRuntime}. */
  [LOCK_RUNTIME](): LockRuntime;
}

/**
 * The runtime of `client` (a `LockClient`), for a lock kind's own operations.
 *
 * @throws `InvalidArgumentError` when `client` is not a `LockClient`
 */
export function lockRuntime(client: LockHost): LockRuntime {
  if (typeof client !== 'object' || client === null || typeof client[LOCK_RUNTIME] !== 'function') {
    throw new InvalidArgumentError('client', 'expected a LockClient');
  }
  return client[LOCK_RUNTIME]();
}
