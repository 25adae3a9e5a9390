import { expect } from 'vitest';
import { expectHammerHeld, hammerFigures } from '../hammer/verifyHammer.js';
import type { Figures } from '../results/figures.js';
import type { HolderSide, RedissonHammerHold, RedissonHammerReport } from './runRedissonHammer.js';

const SIDES: readonly HolderSide[] = ['deadbolt', 'redisson'];

/**
 * The figures of a run: the hammer's (overlaps, updates lost), with Deadbolt's completed holds as
 * operations and the peer's completed holds and renewal-task runs as figures of their own.
 */
export function redissonHammerFigures(report: RedissonHammerReport): Partial<Figures> {
  return {
    ...hammerFigures(report),
    operations: completed(report.holds, 'deadbolt').length,
    redissonPeerHolds: completed(report.holds, 'redisson').length,
    redissonPeerRenewals: report.peerRenewals.lockTask + report.peerRenewals.readLockTask,
  };
}

/** How many times each lock passed from one side to the other, its holds taken by start. */
export function handoffs(report: RedissonHammerReport): Map<string, number> {
  const byLock = new Map<string, RedissonHammerHold[]>();
  for (const hold of report.holds) byLock.set(hold.lock, [...(byLock.get(hold.lock) ?? []), hold]);
  return new Map(
    [...byLock].map(([lock, holds]) => {
      const sides = [...holds].sort((a, b) => a.start - b.start).map((hold) => hold.side);
      return [lock, sides.filter((side, at) => at > 0 && side !== sides[at - 1]).length];
    }),
  );
}

/**
 * What must hold after a run: the hammer's checks (no overlap, no update lost, every landed
 * increment accounted for, no hold lost its lock); every hold of both sides taken and released as
 * its owner expected; each lock changed sides at least `minHandoffs` times; and the peer's
 * renewals really ran: its `LockTask` (and `ReadLockTask`, with readers) ran, and one of its holds
 * of each such kind outlasted a whole lease and was still its own at the unlock.
 */
export function expectRedissonHammerHeld(report: RedissonHammerReport, minHandoffs: number): void {
  expectHammerHeld(report, report.leaseMicros);
  const subjects = [...new Set(report.holds.map((hold) => hold.subject))];
  for (const subject of subjects) {
    for (const side of SIDES) {
      const holds = completed(report.holds, side).filter((hold) => hold.subject === subject);
      expect(holds.length, `${subject}: holds ${side} took and released`).toBe(report.planned[side]);
    }
  }
  for (const [lock, count] of handoffs(report))
    expect(count, `times ${lock} changed sides`).toBeGreaterThanOrEqual(minHandoffs);

  const pastLease = (exclusive: boolean) =>
    completed(report.holds, 'redisson').some(
      (hold) => hold.exclusive === exclusive && hold.end - hold.start > report.leaseMicros,
    );
  expect(report.peerRenewals.lockTask, 'runs of the peer’s LockTask').toBeGreaterThan(0);
  expect(pastLease(true), 'an exclusive peer hold kept past its lease by the LockTask').toBe(true);
  if (report.holds.some((hold) => !hold.exclusive)) {
    expect(report.peerRenewals.readLockTask, 'runs of the peer’s ReadLockTask').toBeGreaterThan(0);
    expect(pastLease(false), 'a peer read hold kept past its lease by the ReadLockTask').toBe(true);
  }
}

function completed(holds: readonly RedissonHammerHold[], side: HolderSide): RedissonHammerHold[] {
  return holds.filter((hold) => hold.side === side && hold.outcome === 'released');
}
