import type { Attributes } from '@opentelemetry/api';
import type { LockNameMapper } from './lockNames.js';

/** The attribute with the lock's kind: `lock`, `fair`, `read`, `write`, `fenced` or a custom kind's name. */
export const ATTR_LOCK_KIND = 'deadbolt.lock.kind';
/** The attribute with an acquisition's outcome: one of {@link AcquisitionOutcome}. */
export const ATTR_LOCK_OUTCOME = 'deadbolt.lock.outcome';
/** The attribute with the lock's name, as the `lockNames` option maps it; absent by default. */
export const ATTR_LOCK_NAME = 'deadbolt.lock.name';

/**
 * How an acquisition ended, as the `deadbolt.lock.outcome` attribute says it: the lock was
 * `taken`, the wait time ran out (`timed_out`, also a `tryAcquire` that found it held), the
 * caller's signal aborted the wait (`aborted`), or the wait `failed` (Redis unreachable, the
 * client closed).
 */
export type AcquisitionOutcome = 'taken' | 'timed_out' | 'aborted' | 'failed';

const OUTCOMES = { taken: 'taken', timedOut: 'timed_out', aborted: 'aborted', failed: 'failed' } as const;

/** The attribute value of a `waitEnded` event's outcome: OpenTelemetry values are snake case. */
export function outcomeOf(outcome: keyof typeof OUTCOMES): AcquisitionOutcome {
  return OUTCOMES[outcome];
}

/** The attributes every lock's telemetry carries: its kind, and its name unless the policy drops it. */
export function lockAttributes(lockName: LockNameMapper, name: string, kind: string): Attributes {
  const mapped = lockName(name);
  return mapped === undefined ? { [ATTR_LOCK_KIND]: kind } : { [ATTR_LOCK_KIND]: kind, [ATTR_LOCK_NAME]: mapped };
}
