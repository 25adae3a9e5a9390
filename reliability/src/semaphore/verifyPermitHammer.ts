import { expect } from 'vitest';
import type { Figures } from '../results/figures.js';
import type { PermitHammerReport } from './runPermitHammer.js';

/** Reads of the available permits outside 0..N: a release counted twice, or an acquisition that took more than there were. */
export function readsOutOfRange(report: PermitHammerReport, permits: number): number {
  return (report.sampled.fewest < 0 ? 1 : 0) + (report.sampled.most > permits ? 1 : 0);
}

/** The figures of a permit-hammer run (see the README for what each counts). */
export function permitHammerFigures(report: PermitHammerReport, permits: number): Partial<Figures> {
  return {
    faults: report.faults.counts,
    operations: report.completed,
    overlaps: report.excesses.length,
    permitMiscounts:
      (report.account.accounted ? 0 : 1) +
      readsOutOfRange(report, permits) +
      (report.leases?.breaches.length ?? 0) +
      (report.leases?.heldLeft ?? 0) +
      ledgerOff(report),
    // A leased kind's killed holders leak nothing: their permits came back by themselves.
    permitsLeaked: report.account.accounted ? report.restored : 0,
    lateDeliveries: report.faults.late.delivered,
    lateResends: report.faults.late.resent,
  };
}

/** 1 when a Semaphore's available permits plus those its holds mark are not the permits it was given: some lost or invented. */
export function ledgerOff(report: PermitHammerReport): number {
  const { ledger } = report;
  return ledger === undefined || ledger.available + ledger.marked === ledger.given ? 0 : 1;
}

/**
 * What must hold after any permit-hammer run of a semaphore of `permits`:
 * - the hold-interval history never has more than N permits held at once;
 * - every read of the available permits during the run was within 0..N;
 * - the end count adds up: with what the killed holders held given back for them, every permit
 *   is back (but, for each request whose outcome nobody could know, its permits or none): a
 *   holder killed with permits kept exactly those;
 * - a `Semaphore`'s ledger: the permits available plus those its holds hash marks as held are
 *   exactly the permits given, with no allowance for unknown outcomes: none lost or invented;
 * - every grant of the workers that were not killed was given back;
 * - a leased kind: once every lease ended, every permit is back (nobody gave the killed holders'
 *   back) and none is left in the held permits' set; a grant that outlived its fixed lease was
 *   told by then and its release gave nothing back; a grant under the watchdog that lost its
 *   permits was told (see `reviewLeases`).
 */
export function expectPermitsHeld(report: PermitHammerReport, permits: number): void {
  const excesses = report.excesses.map(
    ({ grant, held, limit }) =>
      `${grant.id} [${grant.start}, ${grant.end}] ${grant.permits} permits: ${held} held, limit ${limit}`,
  );
  expect(excesses.slice(0, 10), `${excesses.length} grants beyond ${permits} permits; the first ones`).toEqual([]);
  expect(report.sampled.reads, 'reads of the available permits during the run').toBeGreaterThan(0);
  expect([report.sampled.fewest, report.sampled.most], 'fewest and most permits read as available').toEqual([
    Math.max(report.sampled.fewest, 0),
    Math.min(report.sampled.most, permits),
  ]);
  expect(report.account, 'the end count: leaked permits are what killed holders kept').toMatchObject({
    accounted: true,
  });
  if (report.ledger !== undefined) {
    expect(
      report.ledger.available + report.ledger.marked,
      `available + marked as held, of ${report.ledger.given} given (${JSON.stringify(report.ledger)})`,
    ).toBe(report.ledger.given);
  }
  if (report.leases === undefined) return;
  expect(
    report.leases.breaches.slice(0, 10),
    `${report.leases.breaches.length} broken lease promises; the first ones`,
  ).toEqual([]);
  expect(report.leases.heldLeft, 'permits still in the held set once every lease ended').toBe(0);
  expect(report.leases.outlived, 'grants that outlived their fixed lease (the worker makes some)').toBeGreaterThan(0);
}
