import { AsyncLocalStorage } from 'node:async_hooks';
import { LockNotHeldError } from '@deadbolt/core';

/** The signal of the hold each `@WithLock` method runs under, for the code it calls. */
export const holdSignals = new AsyncLocalStorage<AbortSignal>();

/**
 * The signal of the lock the enclosing `@WithLock` method holds: it aborts, with a
 * `LockLostError` as its reason, when the lock is lost (its lease ran out, or renewal could not
 * reach Redis in time). Pass it to what the method awaits, or check it between steps. Reachable
 * from anything the method calls, through its async scope.
 *
 * @throws `LockNotHeldError` outside a `@WithLock` method
 */
export function lockSignal(): AbortSignal {
  const signal = holdSignals.getStore();
  if (signal === undefined) throw new LockNotHeldError('lockSignal() was called outside a @WithLock method');
  return signal;
}
