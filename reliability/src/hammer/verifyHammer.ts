import { expect } from 'vitest';
import type { CutOff } from '../faults/FaultLog.js';
import type { Figures } from '../results/figures.js';
import { freezesPastLease } from './overlaps.js';
import type { HammerHold, HammerReport } from './runHammer.js';

/** The figures of a hammer run (see the README for what each counts). */
export function hammerFigures(report: HammerReport): Partial<Figures> {
  return {
    faults: report.faults.counts,
    operations: report.holds.filter((hold) => hold.outcome === 'released').length,
    overlaps: report.overlaps.filter((overlap) => !overlap.excused).length,
    excusedOverlaps: report.overlaps.filter((overlap) => overlap.excused).length,
    lostUpdates: report.resources.reduce((sum, resource) => sum + resource.landed.size - resource.counter, 0),
    staleWritesRejected: report.holds.filter((hold) => hold.rejected).length,
    lateDeliveries: report.faults.late.delivered,
    lateResends: report.faults.late.resent,
  };
}

/**
 * Whether a hold that was told it lost its lock (its signal aborted before its work ended) was
 * cut off from Redis meanwhile: a partition longer than its requests' records (see FaultLog's
 * cut-offs), during its hold or less than a lease before it (a renewal's outcome unknown then
 * leaves the lease known to Redis, which may end during the hold).
 */
export function cutOffDuring(hold: HammerHold, cutOffs: readonly CutOff[], leaseMicros: number): boolean {
  return hold.lost && cutOffs.some((cutOff) => hold.start <= cutOff.to + leaseMicros && hold.end >= cutOff.from);
}

/**
 * What must hold after any hammer run:
 * - no two owners held one lock at once (one of them exclusive), unless the earlier one's lease
 *   provably ran out while its process was frozen;
 * - no update lost: each counter equals the number of increments that landed;
 * - every landed increment is accounted for: reported by its hold, or made by a hold that was
 *   killed before it could report it;
 * - a hold ended without its lock (its signal aborted or its release found the lock gone) only
 *   where its process was frozen past its lease, or where it was told (its signal aborted before
 *   its work ended) while the network to Redis was down past its requests' records. A release
 *   that found the lock gone after a try of unknown outcome (`unknown`) lost nothing: the first
 *   try may have released it.
 */
export function expectHammerHeld(report: HammerReport, leaseMicros: number): void {
  const describeHold = (hold: HammerHold) => {
    const frozen = report.faults.pauses
      .filter((pause) => pause.pid === hold.pid)
      .map((pause) => ` frozen [${pause.from}, ${pause.to}]`);
    return `${hold.subject} ${hold.id} [${hold.start}, ${hold.end}] ${hold.outcome}${hold.lost ? ' lost' : ''}${frozen.join('')}`;
  };
  const broken = report.overlaps
    .filter((overlap) => !overlap.excused)
    .map(({ earlier, later }) => `${describeHold(earlier)} ∩ ${describeHold(later)}`);
  expect(broken.slice(0, 10), `${broken.length} overlapping holds; the first ones`).toEqual([]);

  for (const resource of report.resources) {
    expect(resource.counter, `counter of ${resource.lock}`).toBe(resource.landed.size);
  }
  const byId = new Map(report.holds.map((hold) => [hold.id, hold]));
  const unaccounted = report.resources.flatMap((resource) =>
    [...resource.landed].filter((id) => {
      const hold = byId.get(id);
      return hold === undefined || !(hold.wrote || hold.outcome === 'killed');
    }),
  );
  expect(unaccounted, 'landed increments no hold accounts for').toEqual([]);
  const missing = report.holds.filter(
    (hold) => hold.wrote && !report.resources.some((resource) => resource.landed.has(hold.id)),
  );
  expect(missing.map(describeHold), 'increments reported but not in the store').toEqual([]);

  const lostUnexplained = report.holds.filter(
    (hold) =>
      (hold.lost || hold.outcome === 'not-held') &&
      freezesPastLease(hold, report.faults.pauses, leaseMicros).length === 0 &&
      !cutOffDuring(hold, report.faults.cutOffs, leaseMicros),
  );
  expect(lostUnexplained.map(describeHold), 'holds that lost their lock with no freeze to explain it').toEqual([]);
}
