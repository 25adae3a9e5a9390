import { expect } from 'vitest';
import { expectHammerHeld } from '../hammer/verifyHammer.js';
import type { ChaosMeasures } from './chaosMeasures.js';
import type { ChaosHammerReport } from './runChaosHammer.js';

/** How long past `commandTimeout` a call may take to fail on this loaded 2-core machine (timer lateness). */
export const CALL_SLACK_MS = 500;

/**
 * What must hold when the lock server's host goes silent during holds (`signalsMustAbort`: also
 * for holds whose release was already called): the hammer's checks (no
 * overlap, no update lost, a hold lost only while cut off), every hold open then told before its
 * lease could end, no failed release try longer than `commandTimeout`, no failed acquire try longer
 * than a lease (its turn) plus `commandTimeout`, and every client host taking locks again once healed.
 */
export function expectChaosHeld(
  report: ChaosHammerReport,
  measures: ChaosMeasures,
  leaseMs: number,
  commandTimeout: number,
  signalsMustAbort: boolean,
): void {
  expectHammerHeld(report, leaseMs * 1000);
  if (report.faults.cutOffs.length > 0)
    expect(measures.holdsAtFault, 'holds open when the host went silent').toBeGreaterThan(0);
  expect(measures.grantsWhileCutOff, 'locks granted while the servers were cut off').toBe(0);
  // A lock whose holder's signal is not promised to abort once its release was called (RedLock): the
  // holder must be told, or have left its critical section, before its lease could end.
  const inTime = measures.holdsToldInTime + (signalsMustAbort ? 0 : measures.holdsLeftInTime);
  expect(inTime, 'holds open at the cut-off told (or out) before their lease could end').toBe(measures.holdsAtFault);
  expect(measures.longestReleaseTryMs, 'longest failed release try, ms').toBeLessThanOrEqual(
    commandTimeout + CALL_SLACK_MS,
  );
  expect(measures.longestAcquireTryMs, 'longest failed acquire try, ms').toBeLessThanOrEqual(
    leaseMs + commandTimeout + CALL_SLACK_MS,
  );
  expect(measures.recoveredHosts, 'client hosts that took a lock after the heal').toBe(measures.clientHosts);
}
