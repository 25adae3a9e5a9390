import { lockChannelName, prefixedName, type KeyLayout } from '@deadbolt/core/kit';

/**
 * The names a fair lock derives from its name besides a lock's own (`LOCK_KEY_LAYOUT`): its queue
 * `redisson_lock_queue:{name}` and its waiters' deadlines `redisson_lock_timeout:{name}`.
 */
export const FAIR_LOCK_KEY_LAYOUT: KeyLayout<'queue' | 'timeouts'> = {
  prefixes: { queue: 'redisson_lock_queue', timeouts: 'redisson_lock_timeout' },
};

/** The Redis keys and channels of one fair lock, in Redisson's layout. */
export interface FairLockKeys {
  /** The lock hash itself (same layout as the reentrant lock). */
  readonly lock: string;
  /** The FIFO queue of waiting owners: `redisson_lock_queue:{name}`. */
  readonly queue: string;
  /** The waiters' deadlines, a sorted set: `redisson_lock_timeout:{name}`. */
  readonly timeouts: string;
  /** The lock's channel, `redisson_lock__channel:{name}`: the prefix of every waiter's channel. */
  readonly channel: string;
  /** The channel that wakes one particular waiter: `redisson_lock__channel:{name}:<ownerField>`. */
  waiterChannel(ownerField: string): string;
}

/**
 * The keys a fair lock named `name` uses. All of them share the lock's hash slot, so one script
 * can touch them together in a cluster.
 */
export function fairLockKeys(name: string): FairLockKeys {
  const channel = lockChannelName(name);
  return {
    lock: name,
    queue: prefixedName(FAIR_LOCK_KEY_LAYOUT.prefixes.queue, name),
    timeouts: prefixedName(FAIR_LOCK_KEY_LAYOUT.prefixes.timeouts, name),
    channel,
    waiterChannel: (ownerField) => `${channel}:${ownerField}`,
  };
}
