import type { ForceReleaseInput, HandOffInput } from '../commands/inputs.js';
import type { RenewCommand } from '../commands/renewBatch.js';
import type { AcquireReply, HandOffReply, LockState, ReleaseReply } from '../commands/replies.js';
import type { Call, Command } from '../scripts/Command.js';
import type { HeldLock } from './HeldLock.js';
import type { HoldHandle } from './HoldHandle.js';
import type { Backoff } from './spinToAcquire.js';

/** What an acquisition's attempts share, passed to {@link LockKind.leave}. */
export interface WaitContext {
  /** The owner field, `<clientId>:<ownerId>`. */
  readonly field: string;
  /** The lease to set, in milliseconds. */
  readonly lease: number;
  /** The wait time of the whole acquisition; 0 means this is the only attempt. */
  readonly waitTime: number;
}

/** One acquisition attempt, passed to {@link LockKind.acquire}. */
export interface AttemptContext extends WaitContext {
  /**
   * This attempt's hold id, `<instance>:<n>`, never reused: the hold it takes is marked with it,
   * so that the request counts once however often the driver sends it, and its release and
   * extend name it.
   */
  readonly hold: string;
}

/**
 * A lock kind, declared: the command for each operation on one lock, and where its waiters wait.
 * One generic implementation (`LockBase`) does everything else for every kind: acquiring with and
 * without waiting, `withLock`, owners and reentrancy, the watchdog, replica sync, releases and
 * their retries, queries. Made once per lock handle, for its name (and options).
 *
 * Every `field` here is an owner field, `<clientId>:<ownerId>`; a kind that stores holds under
 * another field (a read-write lock's writer) maps it with {@link LockKind.holdField}.
 *
 * @typeParam Grant - what a successful acquire learns (a fenced lock's token); `null` for most kinds
 * @typeParam Held - what an acquisition returns
 */
export interface LockKind<Grant = null, Held extends HeldLock = HeldLock> {
  /** The kind's name in the client's events (`LockClientEvents`): `lock`, `fair`, `read`, `write`, `fenced`, ... */
  readonly kindName: string;
  /** One attempt to take or re-enter the lock. May throw `InvalidArgumentError` for an owner the kind refuses. */
  acquire(attempt: AttemptContext): Call<AcquireReply<Grant>>;
  /**
   * Releases the hold `hold` of `field`. Run again with the same hold after a failure: the hold's
   * markers and request record make a repeat harmless. Also gives back an attempt whose outcome
   * was not learned: its record then stays claimed, so the attempt, if it arrives later, takes
   * nothing.
   */
  release(field: string, hold: string): Call<ReleaseReply>;
  /**
   * Deletes the lock if its hash is still `input.holders` (as read when asked), whoever holds it,
   * and wakes waiters; `true` when it was deleted. Once per `input.request`, never past its
   * deadline.
   */
  forceRelease(input: Omit<ForceReleaseInput, 'name'>): Call<boolean>;
  /**
   * Sets a lease of `lease` ms from now on the hold `hold` of `field`; `false` when it does not
   * stand. `request` is the extend's own id: an earlier extend of the hold that arrives after it
   * changes nothing.
   */
  extend(field: string, hold: string, lease: number, request: string): Call<boolean>;
  /** Reads the lock's TTL and the hold count of `holdField` (`''` for none), for the queries. */
  state(holdField: string): Call<LockState>;
  /**
   * Takes a waiter that gives up (timeout, abort, error) out of the kind's queue at once, for a
   * kind that queues its waiters. `request` is the leave's own id, `<instance>:<n>`: its record
   * makes a copy change nothing (the waiter may have queued again meanwhile).
   */
  leave?(wait: WaitContext, request: string): Call<unknown>;
  /**
   * Releases a hold and, when it was its owner's last, passes the lock to a waiter of the same
   * client in one step, without waking anyone else (see `LocalHandoffs`): for exclusive kinds
   * (and exclusive halves, a read-write lock's write lock) whose waiters need not queue. When the
   * last hold leaves something the receiver may not share (a writer's own read holds), it
   * releases as `release` would and replies `released`: nothing passes. Its script names the
   * lock (`HandOffInput.name`), the releasing hold, the receiver and the receiver's lease, as its
   * release and acquire would; a kind without it always releases to everyone. Its script also tells kinds apart: only waiters of a
   * lock of the same name and hand-off script are passed the lock.
   */
  readonly handOff?: Command<HandOffInput, HandOffReply<Grant>>;
  /** The batch renewal the watchdog runs for this kind's holds. */
  readonly renew: RenewCommand;
  /** The channel a waiter with owner field `field` sleeps on (unused by a kind with a {@link LockKind.backoff}). */
  waitChannel(field: string): string;
  /**
   * For a kind whose waiters must not use pub/sub: they poll instead, sleeping this backoff's
   * delays between attempts (see `spinToAcquire`), and never subscribe. Its releases then need
   * not publish. Absent: waiters sleep on {@link LockKind.waitChannel} until a release message.
   */
  readonly backoff?: Backoff;
  /**
   * The hash field that counts the holds of `field`'s owner: what the watchdog renews and the
   * queries read. Default: `field` itself.
   */
  holdField?(field: string): string;
  /**
   * Whether the watchdog guards holds with a fixed lease up to the end of that lease: for a kind
   * whose hash other owners' holds share, where another party's renewal may shorten it.
   */
  readonly guardsFixedLeases?: boolean;
  /** The error for an attempt the script `refused`, given the owner id. */
  refused?(owner: string): Error;
  /** Wraps a successful acquisition in what `acquire` returns: `heldLock` for most kinds. */
  held(hold: HoldHandle, grant: Grant): Held;
}
