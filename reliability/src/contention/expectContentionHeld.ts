import type { BackendContext } from '@deadbolt/conformance';
import type { HeldLock } from '@deadbolt/core';
import { sleep } from '@deadbolt/test-harness';
import { expect } from 'vitest';
import { expectNothingLeft } from '../checks/nothingLeft.js';
import type { FaultLog } from '../faults/FaultLog.js';
import { recordFigures } from '../results/figures.js';
import type { Contention, WaitOutcome } from './Contention.js';

/** What a fault may explain in a {@link Contention}. */
export interface ContentionAllowance {
  /** The holder's holds it kept to the end; those it lost are left out of the overlap check. */
  readonly kept: (hold: HeldLock) => boolean;
  /** The errors a wait may end with because of the fault (typed errors only). */
  readonly waitErrors: readonly string[];
}

/**
 * Records a contention's figures for `testFile`, then checks that no two owners held a lock at
 * once, that every wait got its lock or ended with a typed error the fault explains, and that
 * nothing is left behind.
 */
export async function expectContentionHeld(
  testFile: string,
  ctx: BackendContext,
  contention: Contention,
  outcomes: readonly WaitOutcome[],
  faults: FaultLog,
  allowance: ContentionAllowance,
): Promise<void> {
  const overlaps = await contention.overlaps(allowance.kept);
  recordFigures(testFile, ctx.backend().name, {
    faults: faults.counts,
    operations: outcomes.filter((outcome) => outcome.interval !== undefined).length,
    overlaps: overlaps.length,
  });
  expect(overlaps, 'overlapping holds').toEqual([]);
  const failed = outcomes.filter((outcome) => outcome.error !== undefined);
  expect(
    failed.filter((outcome) => !outcome.typed),
    'waits that ended with an untyped error',
  ).toEqual([]);
  expect(
    failed.filter((outcome) => !allowance.waitErrors.includes(outcome.error ?? '')),
    'waits that failed unexplained',
  ).toEqual([]);
  await expectNothingLeft(
    ctx.backend(),
    [contention.holder, contention.waiter],
    contention.holds.map(({ observer }) => observer),
  );
}

/**
 * After a fault no lock should survive without renewals: waits past a whole lease, then checks
 * that every holder still holds its lock and was told nothing, that no waiter got in, and
 * releases the holds.
 */
export async function expectHoldersKept(contention: Contention, leaseMs: number): Promise<void> {
  await sleep(leaseMs + 1_000);
  for (const { held, observer, subject } of contention.holds) {
    expect(held.signal.aborted, `${subject.label} holder told it lost its lock`).toBe(false);
    expect(await observer.isHeldBy(held.owner), `${subject.label} still held`).toBe(true);
  }
  expect(await contention.acquiredSoFar(), 'waiters that got a held lock').toBe(0);
  expect(await contention.releaseHolds()).toEqual(contention.holds.map(() => 'released'));
}
