import { InvalidArgumentError, LockLostError, LockNotHeldError, LockWaitTimeoutError } from '@deadbolt/core';
import { LockUpgradeError } from '@deadbolt/rwlock';
import { ModelViolationError } from './Violation.js';

/** How a call ended, in the terms the model predicts. */
export type OutcomeKind = 'held' | 'null' | 'invalid' | 'upgrade' | 'notHeld' | 'lost' | 'ok' | 'error';

/** A call's outcome: a value, or one of the library's typed errors, or something else. */
export type Outcome<T> =
  | { readonly kind: 'held' | 'ok'; readonly value: T }
  | { readonly kind: Exclude<OutcomeKind, 'held' | 'ok'>; readonly error: unknown };

/**
 * Runs `call` and classifies how it ended: `held` or `ok` with its value, `null` for a wait that
 * ran out (a `null` from `tryAcquire` or a `LockWaitTimeoutError`), or the typed error. A model
 * violation thrown inside (a `withLock` body's) is passed on.
 */
export async function outcomeOf<T>(call: () => Promise<T | null>, success: 'held' | 'ok'): Promise<Outcome<T>> {
  try {
    const value = await call();
    if (value === null) return { kind: 'null', error: undefined };
    return { kind: success, value };
  } catch (error) {
    if (error instanceof ModelViolationError) throw error;
    if (error instanceof LockWaitTimeoutError) return { kind: 'null', error };
    if (error instanceof InvalidArgumentError) return { kind: 'invalid', error };
    if (error instanceof LockUpgradeError) return { kind: 'upgrade', error };
    if (error instanceof LockNotHeldError) return { kind: 'notHeld', error };
    if (error instanceof LockLostError) return { kind: 'lost', error };
    return { kind: 'error', error };
  }
}

/** The outcome for a trace line. */
export function describeOutcome(outcome: Outcome<unknown>): string {
  if (!('error' in outcome) || outcome.kind === 'null') return outcome.kind;
  const error = outcome.error;
  return `${outcome.kind} (${error instanceof Error ? `${error.name}: ${error.message}` : String(error)})`;
}
