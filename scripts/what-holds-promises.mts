// What the guide "What holds under faults" says of runs whose kind is not a lock (see
// scripts/what-holds-page.mts): a semaphore's runs (they name their permits) keep their permits
// when the store never counted more holders than permits and every permit was free again at the
// end; a count-down latch's (they name their count) never opens early when no waiter was let
// through before the count's countdowns were sent. Every check of the run must have passed too.

import type { ChaosRecord } from '../reliability/src/chaos/chaosRecord.js';

/** What a semaphore's or a latch's run shows under its fault. */
export type PromiseVerdict = 'permits kept' | 'never opened early';

/** The verdicts' meanings, for the guide's legend. */
export const PROMISE_LEGEND: readonly string[] = [
  '- **permits kept**: a semaphore never had more holders at once than permits (counted at a store',
  '  no fault touched), every check of the run passed (leased permits: every holder open at the fault',
  '  was told, or done, before its lease could end), and every permit was free again once its holders',
  '  gave back: none invented, none lost for good.',
  '- **never opened early**: no waiter of a count-down latch was let through before its count of',
  '  countdowns was sent, nor while its server was cut off, and every waiter was let through after',
  '  (where a failover lost countdowns, once they were counted down again).',
];

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The verdict of a semaphore's or latch's run; `undefined` for a lock's, `not guaranteed` when it failed. */
export function promiseVerdictOf(run: ChaosRecord): PromiseVerdict | 'not guaranteed' | undefined {
  if (run.permits !== undefined)
    return run.held && run.overlaps === 0 && run.permitsAtEnd === run.permits ? 'permits kept' : 'not guaranteed';
  if (run.latchCount !== undefined) return run.held && run.overlaps === 0 ? 'never opened early' : 'not guaranteed';
  return undefined;
}

/** The counts behind a semaphore's or latch's verdict, for one adapter's run; `undefined` for a lock's. */
export function promiseEvidenceOf(run: ChaosRecord): string | undefined {
  const failed = `${run.measuredOnly === true ? ', measured, not promised' : ''}${run.held ? '' : ', **a check failed**'}`;
  if (run.permits !== undefined) {
    const told =
      run.leaseMs > 0 && run.holdsAtFault > 0
        ? `, ${run.holdsToldInTime + run.holdsLeftInTime} of ${count(run.holdsAtFault, 'open hold', 'open holds')} told in time`
        : '';
    return `${run.adapter}: ${count(run.overlaps, 'grant', 'grants')} with more than ${run.permits} holders in ${run.operations} grants (at most ${run.mostHolders ?? '?'} at once)${told}, ${run.permitsAtEnd ?? '?'} of ${run.permits} permits free at the end${failed}`;
  }
  if (run.latchCount !== undefined) {
    const lost =
      (run.countdownsLost ?? 0) > 0
        ? `, ${count(run.countdownsLost, 'countdown', 'countdowns')} lost at the failover (counted down again)`
        : '';
    return `${run.adapter}: ${count(run.overlaps, 'waiter', 'waiters')} of ${run.operations} let through early, ${run.countdownCalls ?? '?'} countdown calls for a count of ${run.latchCount}${lost}${failed}`;
  }
  return undefined;
}
