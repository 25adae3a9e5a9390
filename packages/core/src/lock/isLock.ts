import type { HeldLock } from './HeldLock.js';
import type { LockBase } from './LockBase.js';

/**
 * The brand every lock carries. A global symbol rather than `instanceof LockBase`: when a
 * package's ESM and CJS builds both load, their two `LockBase` classes are different objects,
 * while their locks carry the same brand.
 */
export const LOCK_BRAND: unique symbol = Symbol.for('@deadbolt/core.lock');

/** Whether `value` is a lock of any kind (`Lock`, `FairLock`, a read or write lock, ...), from any copy of `@deadbolt/core`. */
export function isLock(value: unknown): value is LockBase<HeldLock, unknown> {
  return typeof value === 'object' && value !== null && LOCK_BRAND in value && value[LOCK_BRAND] === true;
}
