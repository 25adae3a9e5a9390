import type { PermitAttempt } from './permitGrants.js';

/**
 * How late a holder may learn that its fixed lease ended, in ms: its lease timer fires on an
 * event loop that three tasks and a driver share, on a machine other processes load. What is
 * checked is that it learns at its lease's end, not never or one renewal later.
 */
export const TOLD_SLACK_MS = 250;
// How far the wall clock Redis's scripts compare leases by may trail the monotonic one, in ms.
const CLOCK_SLACK_MS = 5;
const MICROS_PER_MS = 1_000;

/** What the leases of one worker's grants came to. */
export interface LeaseReview {
  /** Grants held (or killed holding them) after their fixed lease surely ended. */
  readonly outlived: number;
  /** Grants under the watchdog whose release found permits gone (each must have been told first). */
  readonly watchdogLapses: number;
  /** Promises of leases broken, one line each: must be none. */
  readonly breaches: readonly string[];
}

/**
 * Checks the leases of a leased kind's grants (`killedAt`: when the worker was killed, if it was):
 * - the release of a grant sent after its fixed lease surely ended (the acquire's reply plus the
 *   lease) gives nothing back (`lapsed`): the permits came back when the lease ended, not twice;
 * - a grant held (or killed holding it) more than {@link TOLD_SLACK_MS} past that end was told,
 *   its signal aborted, by then;
 * - a grant under the watchdog that lost its permits was told before its release was sent.
 */
export function reviewLeases(attempts: ReadonlyMap<string, PermitAttempt>, killedAt?: number): LeaseReview {
  let outlived = 0;
  let watchdogLapses = 0;
  const breaches: string[] = [];
  for (const [id, attempt] of attempts) {
    if (attempt.start === undefined) continue;
    const heldUntil = attempt.end ?? killedAt ?? Infinity;
    if (attempt.leaseMs === undefined) {
      if (attempt.lapsed !== true) continue;
      watchdogLapses++;
      if (attempt.told === undefined || attempt.told > heldUntil)
        breaches.push(`${id}: lost its permits under the watchdog, but was not told before its release`);
      continue;
    }
    const leaseEnd = attempt.start + attempt.leaseMs * MICROS_PER_MS;
    if (heldUntil <= leaseEnd + CLOCK_SLACK_MS * MICROS_PER_MS) continue;
    outlived++;
    if (attempt.lapsed === false)
      breaches.push(
        `${id}: its release, sent after its ${attempt.leaseMs} ms lease ended, gave its permits back again`,
      );
    const toldBy = leaseEnd + TOLD_SLACK_MS * MICROS_PER_MS;
    const late = attempt.told === undefined ? heldUntil > toldBy : attempt.told > toldBy;
    if (late)
      breaches.push(
        `${id}: its ${attempt.leaseMs} ms lease ended by ${leaseEnd} µs, but it was ${attempt.told === undefined ? 'never told' : `told only at ${attempt.told} µs`}`,
      );
  }
  return { outlived, watchdogLapses, breaches };
}
