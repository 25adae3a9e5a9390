import type { BackendContext } from '@deadbolt/conformance';
import type { RedisAddress } from '@deadbolt/test-harness';
import type { LockSubject } from '../kinds.js';
import { recordFigures } from '../results/figures.js';
import type { HammerShape } from './hammerShape.js';
import { runHammer, type HammerFault, type HammerReport } from './runHammer.js';
import { expectHammerHeld, hammerFigures } from './verifyHammer.js';

/** Runs the hammer on the context's backend, records its figures for `testFile`, and checks them. */
export async function hammerAndVerify(
  testFile: string,
  ctx: BackendContext,
  run: { store: RedisAddress; subjects: readonly LockSubject[]; shape: HammerShape; faults: readonly HammerFault[] },
): Promise<HammerReport> {
  const report = await runHammer({ ...run.shape, backend: ctx.backend(), store: run.store, subjects: run.subjects, label: ctx.uniqueName('hammer'), faults: run.faults });
  recordFigures(testFile, ctx.backend().name, hammerFigures(report));
  expectHammerHeld(report, run.shape.watchdogTimeout * 1000);
  return report;
}
