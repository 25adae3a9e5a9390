import { holdMarkersKey, LOCK_KEY_LAYOUT, type KeyLayout } from '@deadbolt/core/kit';
import { FAIR_LOCK_KEY_LAYOUT, fairLockKeys } from '@deadbolt/fair-lock';
import { FENCED_LOCK_KEY_LAYOUT, fencingTokenKey } from '@deadbolt/fenced-lock';
import { READ_WRITE_LOCK_KEY_LAYOUT, readWriteLockKeys } from '@deadbolt/rwlock';
import { SEMAPHORE_KEY_LAYOUT } from '@deadbolt/semaphore';

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

/** The layouts of the kinds the command reads: what each derives from a lock's name. */
const LAYOUTS: readonly KeyLayout[] = [
  LOCK_KEY_LAYOUT,
  FAIR_LOCK_KEY_LAYOUT,
  FENCED_LOCK_KEY_LAYOUT,
  READ_WRITE_LOCK_KEY_LAYOUT,
  SEMAPHORE_KEY_LAYOUT,
];

/**
 * Whether `key` belongs to some lock (see {@link lockKeys}) and so is not a lock of its own: a
 * name one of the kinds derives from a lock's name (hold markers and request records, the fair
 * queue and deadlines, the token counter, the channels, the read holds' lease keys).
 */
export function belongsToALock(key: string): boolean {
  return LAYOUTS.some(
    (layout) =>
      Object.values(layout.prefixes).some((prefix) => key.startsWith(`${prefix}:`)) ||
      layout.isSuffixed?.(key) === true,
  );
}
