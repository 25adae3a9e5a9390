import type { LockClient } from '@deadbolt/core';
import type { Command, HandOffInput, HandOffReply } from '@deadbolt/core/kit';
import type { AcquirableLock, ConformantLock, LockHold } from './builtLocks.js';
import type { KindSettings } from './KindSettings.js';
import type { KindWithRoles, RoleName } from './LockRole.js';

/**
 * One kind of Deadbolt lock: what it is and how a lock of it is built. The conformance suite, the
 * reliability suite and the benchmark all read their kinds from here; what only one of them needs
 * of a kind, it keeps itself, keyed by {@link RegisteredKind.id}.
 */
export interface RegisteredKind<Built extends AcquirableLock = AcquirableLock> extends KindWithRoles {
  /** Whether it grants waiters in the order they asked. */
  readonly fair: boolean;
  /** Whether its locks span independent deployments, one client each (RedLock); otherwise it takes one client. */
  readonly spansDeployments: boolean;
  /**
   * The lock of `role` named `name`, built as a user builds it, on `clients`: one per deployment
   * for a kind that spans several, else exactly one.
   *
   * @throws Error for a kind on one deployment given other than one client
   */
  create(clients: readonly LockClient[], name: string, role: RoleName, settings?: KindSettings): Built;
  /**
   * The fencing token of a hold, for a kind that issues one.
   *
   * @throws Error for a hold that carries no token
   */
  readonly token?: (held: LockHold) => bigint;
}

/** A kind whose locks stand alone: they have a name, answer queries, and wake their waiters by pub/sub. */
export interface SingleLockKind<Built extends ConformantLock = ConformantLock> extends RegisteredKind<Built> {
  /**
   * How a release reaches waiters: `shared`, one channel per lock that every local waiter shares;
   * `own`, a channel per waiter, so that a release wakes exactly the next one (the fair lock);
   * `none`, no pub/sub at all: waiters poll with a backoff, and nothing subscribes or publishes
   * (the spin lock). Tests about subscriptions and wake-up messages apply to the first two only.
   */
  readonly waiterChannels: WaiterChannels;
  /**
   * The roles in which a release passes the lock to a waiting task of the same client in one
   * script, without waking anyone else (the client option `localHandoff`), and how; a role not
   * named releases to everyone.
   */
  readonly localHandoff: Readonly<Partial<Record<RoleName, LocalHandoffRole>>>;
}

/** How a kind's waiters learn of a release: see {@link SingleLockKind.waiterChannels}. */
export type WaiterChannels = 'shared' | 'own' | 'none';

/** How a kind passes the lock to a waiting task of the same client in one of its roles. */
export interface LocalHandoffRole {
  /** The hand-off a lock named `name` declares in this role, for tests that send it themselves. */
  handOff(name: string): Command<HandOffInput, HandOffReply<unknown>>;
  /** The fields of the lock hash, in order, while owner field `field` alone holds the lock in this role. */
  holderFields(field: string): readonly string[];
}
