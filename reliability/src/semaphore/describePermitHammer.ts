import { useBackendContext, type BackendOptions, type TopologyName } from '@deadbolt/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerProcess } from '../process/WorkerProcess.js';
import { recordFigures } from '../results/figures.js';
import { backendsOn } from '../suite/backends.js';
import { runPermitHammer, type PermitHammerOptions, type PermitHammerShape } from './runPermitHammer.js';
import { expectPermitsHeld, permitHammerFigures } from './verifyPermitHammer.js';

/**
 * One permit-hammer test: which semaphore (`kind`), how hard, on what, through which `faults`;
 * a `proxied` plan needs servers of its own (`dedicated`, or a cluster).
 */
export interface PermitHammerPlan extends Pick<PermitHammerOptions, 'kind' | 'faults' | 'proxied'> {
  readonly title: string;
  readonly topology: TopologyName;
  readonly backendOptions: BackendOptions;
  readonly shape: PermitHammerShape;
}

/** The permit hammer of `plan` on every adapter of its topology, its figures recorded for `testFile`. */
export function describePermitHammer(testFile: string, plan: PermitHammerPlan): void {
  describe.each(backendsOn(plan.topology))(
    `${plan.kind.id} hammer on $adapter/${plan.topology}${plan.proxied ? ' through proxies' : ''}`,
    ({ adapter }) => {
      const ctx = useBackendContext(adapter, plan.topology, plan.backendOptions);
      afterEach(() => WorkerProcess.killAll());

      it(plan.title, async () => {
        const report = await runPermitHammer({
          ...plan.shape,
          backend: ctx.backend(),
          kind: plan.kind,
          observer: await ctx.client(),
          label: ctx.uniqueName('permits'),
          faults: plan.faults,
          ...(plan.proxied ? { proxied: plan.proxied } : {}),
        });
        recordFigures(testFile, ctx.backend().name, permitHammerFigures(report, plan.shape.permits));
        console.log(
          `${plan.kind.id} on ${ctx.backend().name}: ${report.completed} grants given back, ${report.excesses.length} beyond ${plan.shape.permits}, ` +
            `${report.account.leaked} leaked (${report.account.certain} kept by killed holders, ${report.unknown} requests of unknown outcome), ` +
            `${report.sampled.reads} reads in ${report.sampled.fewest}..${report.sampled.most}, faults ${JSON.stringify(report.faults.counts)}` +
            (report.ledger === undefined
              ? ''
              : `; ledger ${report.ledger.available} available + ${report.ledger.marked} marked held of ${report.ledger.given} given ` +
                `(${report.ledger.marked - report.account.certain} by acquisitions of unknown outcome never given back)`) +
            (report.releasesNotHeld === 0
              ? ''
              : `; ${report.releasesNotHeld} releases found their permits' mark gone (LockLostError)`) +
            (report.faults.late.delivered + report.faults.late.resent === 0
              ? ''
              : `; late copies: ${report.faults.late.delivered} delivered (${report.faults.late.refused} refused as late), ${report.faults.late.resent} re-sent after a long partition`) +
            (report.leases === undefined
              ? ''
              : `; leases: ${report.leases.outlived} grants outlived a fixed lease, ${report.leases.watchdogLapses} lost under the watchdog, ` +
                `${report.leases.reclaimed} permits of killed holders came back by lease, ${report.leases.breaches.length} broken`) +
            (report.lingered.length === 0
              ? ''
              : `; workers alive after closing their client, held by ${JSON.stringify(report.lingered)}`),
        );
        expectPermitsHeld(report, plan.shape.permits);
        // Every kind of fault planned was injected at least once.
        expect(Object.keys(report.faults.counts).sort()).toEqual(
          [...new Set(plan.faults.map((fault) => fault.type))].sort(),
        );
      });
    },
  );
}
