import type { Attributes } from '@opentelemetry/api';
import type { LockLossReason } from '@deadbolt/core';
import type { LockNameMapper } from './lockNames.js';

/** The attribute with the lock's kind: `lock`, `fair`, `read`, `write`, `fenced` or a custom kind's name. */
export const ATTR_LOCK_KIND = 'deadbolt.lock.kind';
/** The attribute with an acquisition's outcome: one of {@link AcquisitionOutcome}. */
export const ATTR_LOCK_OUTCOME = 'deadbolt.lock.outcome';
/** The attribute with why a hold was lost, on the losses metric and a lost hold's span: one of {@link LossReason}. */
export const ATTR_LOCK_LOSS_REASON = 'deadbolt.lock.loss_reason';
/**
 * OpenTelemetry's `error.type`: the class name of the error an operation failed with (a failed
 * acquisition's `RedisUnavailableError` or `ClientClosedError`, a lost hold's `LockLostError`, a
 * renewal batch's `RedisUnavailableError`), on its span and its metrics; absent when it succeeded.
 */
export const ATTR_ERROR_TYPE = 'error.type';
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

/**
 * Why a hold was lost, as the `deadbolt.lock.loss_reason` attribute says it (the `lockLost`
 * event's `reason` in snake case): its fixed lease ended while it was held (`lease_ended`: a job
 * that keeps its lock to the end of its lease ends so every time), it was found `gone` (expired,
 * force-unlocked, evicted), Redis was `unreachable` for its renewal, an extend or release whose
 * outcome is unknown may have ended it (`outcome_unknown`), its client was closed
 * (`client_closed`), or the watchdog stopped keeping it at its `maxHoldTime`
 * (`max_hold_time_reached`: a holder that overran). Alert on the ones that mean trouble, usually
 * all but `lease_ended`.
 */
export type LossReason =
  'lease_ended' | 'gone' | 'unreachable' | 'outcome_unknown' | 'client_closed' | 'max_hold_time_reached';

const LOSS_REASONS: Readonly<Record<LockLossReason, LossReason>> = {
  leaseEnded: 'lease_ended',
  gone: 'gone',
  unreachable: 'unreachable',
  outcomeUnknown: 'outcome_unknown',
  clientClosed: 'client_closed',
  maxHoldTimeReached: 'max_hold_time_reached',
};

/** The attribute value of a `lockLost` event's reason. */
export function lossReasonOf(reason: LockLossReason): LossReason {
  return LOSS_REASONS[reason];
}

/** The `error.type` of `error`: its class name (its `name`), `_OTHER` for a thrown value that is no `Error`. */
export function errorType(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}
