import { checkCount, checkDuration, checkOptions } from '../options/validate.js';
import type { LocalHandoffLimits } from './LocalHandoffs.js';

/**
 * Local hand-offs (lock cohorting): when a holder releases a lock that another task of the same
 * client waits for, the lock passes to that task in the release's own script, with no publish and
 * no other process woken. After `maxPasses` consecutive local passes of one lock, or `maxMillis`
 * after the first, a release goes to everyone again, and the client's waiters of that lock hold
 * back until one round trip after that release's reply, so that other processes and Java
 * services get their turn. Applies to `Lock`, `FencedLock`, the write lock of a `ReadWriteLock`
 * (passed only to a waiting writer) and kinds that declare a hand-off; a read lock's shared holds
 * pass nothing, and a fair lock keeps its strict order.
 */
export interface LocalHandoffOptions {
  /** The most consecutive local passes of one lock. Default 4, at least 1. */
  maxPasses?: number;
  /** The longest a run of local passes of one lock lasts, from its first pass. Default 20, at least 1. */
  maxMillis?: number;
}

const KNOWN = ['maxPasses', 'maxMillis'] as const;
const ARGUMENT = 'options.localHandoff';

/** The limits when `localHandoff` is left out. */
export const DEFAULT_LOCAL_HANDOFF: LocalHandoffLimits = Object.freeze({ maxPasses: 4, maxMillis: 20 });

/** Validates `options.localHandoff`; `undefined` when local hand-offs are off (`false`). */
export function resolveLocalHandoffOptions(value: unknown): LocalHandoffLimits | undefined {
  if (value === false) return undefined;
  if (value === undefined || value === true) return DEFAULT_LOCAL_HANDOFF;
  const options = checkOptions<LocalHandoffOptions>(value, KNOWN, ARGUMENT);
  return Object.freeze({
    maxPasses: checkCount(options.maxPasses ?? DEFAULT_LOCAL_HANDOFF.maxPasses, `${ARGUMENT}.maxPasses`, 1),
    maxMillis: checkDuration(options.maxMillis ?? DEFAULT_LOCAL_HANDOFF.maxMillis, `${ARGUMENT}.maxMillis`, { min: 1 }),
  });
}
