import { findPermitExcesses, type LimitChange, type PermitInterval } from '../permitHistory.js';
import type { StepOutcome } from './SemaphoreModel.js';

/** What the real semaphore showed after a step. */
export interface ObservedStep {
  /** The step's outcome, in {@link StepOutcome} form. */
  readonly outcome: StepOutcome;
  /** The semaphore's key in Redis (`GET`): `null` when missing. */
  readonly stored: string | null;
  /** The permits its holds hash (`deadbolt_holds:{name}`) marks as held, summed over every acquisition. */
  readonly marked: number;
}

/** What the model holds after the same step. */
export interface ExpectedStep {
  readonly outcome: StepOutcome;
  readonly exists: boolean;
  readonly available: number;
  /** The permits the semaphore was given, and those held by grants not released (and by acquisitions nobody holds). */
  readonly limit: number;
  readonly held: number;
}

/**
 * The invariants one step broke, each as a line naming it; empty when it kept them all.
 * `outcome`: the call's outcome differs from the model's; `state`: Redis's key differs from the
 * model's (missing, or another number of available permits); `count`: Redis's available permits
 * plus those held by grants not released do not add up to the permits the semaphore was given;
 * `marks`: the permits its holds hash marks as held are not those the model's grants hold (a
 * copy took some again, or a release gave back some twice): none lost or invented.
 */
export function judgeSemaphoreStep(expected: ExpectedStep, observed: ObservedStep): string[] {
  const found: string[] = [];
  if (observed.outcome !== expected.outcome)
    found.push(`[outcome] got ${observed.outcome}, the model says ${expected.outcome}`);
  const stored = expected.exists ? String(expected.available) : null;
  if (observed.stored !== stored)
    found.push(`[state] Redis holds ${String(observed.stored)}, the model ${String(stored)}`);
  const redisAvailable = Number(observed.stored ?? 0);
  if (redisAvailable + expected.held !== expected.limit) {
    found.push(
      `[count] Redis's ${redisAvailable} available + ${expected.held} held ≠ the ${expected.limit} permits given`,
    );
  }
  if (observed.marked !== expected.held)
    found.push(`[marks] Redis marks ${observed.marked} permits held, the model's grants hold ${expected.held}`);
  return found;
}

/** The history's grants beyond the limit in effect, one line each; empty when there is none. */
export function judgeSemaphoreHistory(grants: readonly PermitInterval[], limits: readonly LimitChange[]): string[] {
  return findPermitExcesses(grants, limits).map(
    ({ grant, held, limit }) =>
      `[excess] grant ${grant.id} of ${grant.permits} at step ${grant.start}: ${held} permits held, limit ${limit}`,
  );
}
