import type { LockLostError } from '../errors/LockError.js';
import type { HeldLock } from './HeldLock.js';

/** The key of the method behind {@link watchLoss}. Global, so that copies of `@deadbolt/core` serve each other's holds. */
export const WATCH_LOSS: unique symbol = Symbol.for('@deadbolt/core.watchLoss');

/**
 * Calls `onLost` with the error `held.signal` aborts with, once, right after it aborts (inside the
 * call that loses the hold, so it must not throw); at once when it has aborted already. For lock
 * groups, which watch every member they hold: a listener on `held.signal` would make Node create
 * the signal, which costs microseconds per hold where nothing else asks for it.
 *
 * @returns what stops the watching (a release of the group calls it)
 */
export function watchLoss(held: HeldLock, onLost: (error: LockLostError) => void): () => void {
  return held[WATCH_LOSS](onLost);
}
