import type { BackendContext } from '@deadbolt/conformance';
import type { Delay, RedisAddress } from '@deadbolt/test-harness';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerKind } from '../kinds.js';
import { recordFigures } from '../results/figures.js';
import type { HammerShape } from './hammerShape.js';
import { runHammer, type HammerFault, type HammerReport } from './runHammer.js';
import { expectHammerHeld, hammerFigures } from './verifyHammer.js';

/** What one hammer run takes besides its deployments. */
export interface HammerRun {
  readonly store: RedisAddress;
  readonly subjects: readonly LockSubject<HammerKind>[];
  readonly shape: HammerShape;
  readonly faults: readonly HammerFault[];
  /** The scope its figures are recorded under (`ioredis/redlock`); the first backend's name when absent. */
  readonly scope?: string;
  /** Workers connect through the backend's fault proxies, with this latency (see `HammerOptions.proxied`). */
  readonly proxied?: { readonly latency: Delay };
}

/**
 * Runs the hammer on the first context's backend (and on the others', for kinds that span
 * independent deployments), records its figures for `testFile`, and checks them.
 */
export async function hammerAndVerify(
  testFile: string,
  contexts: readonly [BackendContext, ...BackendContext[]],
  run: HammerRun,
): Promise<HammerReport> {
  const [ctx, ...others] = contexts;
  const report = await runHammer({
    ...run.shape,
    backend: ctx.backend(),
    otherBackends: others.map((other) => other.backend()),
    store: run.store,
    subjects: run.subjects,
    label: ctx.uniqueName('hammer'),
    faults: run.faults,
    ...(run.proxied ? { proxied: run.proxied } : {}),
  });
  recordFigures(testFile, run.scope ?? ctx.backend().name, hammerFigures(report));
  const { late } = report.faults;
  if (late.delivered + late.resent > 0) {
    const outcomes = (outcome: string) => report.holds.filter((hold) => hold.outcome === outcome).length;
    console.log(
      `hammer on ${ctx.backend().name}: ${late.delivered} late copies delivered (${late.refused} refused as late), ${late.resent} re-sent after a long partition; ` +
        `holds: ${outcomes('released')} released, ${outcomes('unknown')} of unknown release, ${outcomes('not-held')} not held, ${report.holds.filter((hold) => hold.lost).length} told lost; ` +
        `retried ${JSON.stringify(report.retried)}`,
    );
  }
  expectHammerHeld(report, run.shape.watchdogTimeout * 1000);
  return report;
}
