import { holdMarkersKey, prefixedName } from '@deadbolt/core/kit';
import { fairLockKeys } from '@deadbolt/fair-lock';
import { fencingTokenKey } from '@deadbolt/fenced-lock';
import { readWriteLockKeys } from '@deadbolt/rwlock';

/**
 * The keys around a lock named `name`, derived by the lock kinds' own helpers so that the command
 * reads exactly the layout the locks write. All share the lock's hash slot.
 */
export interface LockKeys {
  readonly lock: string;
  /** Deadbolt's hold markers, `deadbolt_holds:{name}`. */
  readonly holdMarkers: string;
  /** A fair lock's queue, `redisson_lock_queue:{name}`. */
  readonly queue: string;
  /** A fair lock's waiter deadlines, `redisson_lock_timeout:{name}`. */
  readonly timeouts: string;
  /** A fenced lock's counter, `redisson_lock_token:{name}`. */
  readonly token: string;
  /** The key carrying the lease of read hold `n` of `field`. */
  readHold(field: string, n: number): string;
}

/** The keys of the lock named `name`. */
export function lockKeys(name: string): LockKeys {
  const fair = fairLockKeys(name);
  return {
    lock: name,
    holdMarkers: holdMarkersKey(name),
    queue: fair.queue,
    timeouts: fair.timeouts,
    token: fencingTokenKey(name),
    readHold: readWriteLockKeys(name).readHoldKey,
  };
}

/** A Redisson semaphore's channel, `redisson_sc:{name}`: where its releases are announced. */
export const SEMAPHORE_CHANNEL_PREFIX = 'redisson_sc';

/** The semaphore channel of `name`. */
export function semaphoreChannel(name: string): string {
  return prefixedName(SEMAPHORE_CHANNEL_PREFIX, name);
}

/**
 * Prefixes of the keys (and channels) that belong to a lock rather than being one: Deadbolt's
 * hold markers and request records, the fair queue and deadlines, the token counter, the channels.
 */
const BELONGING_PREFIXES = [
  'deadbolt_holds',
  'deadbolt_request',
  'redisson_lock_queue',
  'redisson_lock_timeout',
  'redisson_lock_token',
  'redisson_lock__channel',
  'redisson_rwlock',
  SEMAPHORE_CHANNEL_PREFIX,
] as const;

/** Whether `key` belongs to some lock (see {@link lockKeys}) and so is not a lock of its own. */
export function belongsToALock(key: string): boolean {
  if (BELONGING_PREFIXES.some((prefix) => key.startsWith(`${prefix}:`))) return true;
  // A read hold's lease key: `{name}:<clientId>:<ownerId>:rwlock_timeout:<n>`.
  return /:rwlock_timeout:\d+$/.test(key);
}

/**
 * The lock name a derived key or channel (`<prefix>:{name}`, or `<prefix>:name` for a name with
 * its own braces) was made from; `undefined` when `key` does not start with `<prefix>:`.
 * `prefix:{x}` could also come from the name `{x}` itself; the name without braces is the one
 * Redisson's and Deadbolt's helpers would make it from, so that is the answer.
 */
export function nameFromDerived(prefix: string, key: string): string | undefined {
  if (!key.startsWith(`${prefix}:`)) return undefined;
  const rest = key.slice(prefix.length + 1);
  const tagged = /^\{([^{}]*)\}$/.exec(rest);
  const name = tagged?.[1] ?? rest;
  return name !== '' && prefixedName(prefix, name) === key ? name : undefined;
}
