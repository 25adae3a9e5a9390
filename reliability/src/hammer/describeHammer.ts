import { useBackendContext, type BackendOptions, type TopologyName } from '@deadbolt/conformance';
import type { Delay } from '@deadbolt/test-harness';
import { afterEach, describe, it } from 'vitest';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerKind } from '../kinds.js';
import { WorkerProcess } from '../process/WorkerProcess.js';
import { backendsOn } from '../suite/backends.js';
import { useStore } from '../store/useStore.js';
import { hammerAndVerify } from './hammerAndVerify.js';
import type { HammerShape } from './hammerShape.js';
import type { HammerFault } from './runHammer.js';

// A hammer is bounded work plus faults that wait out leases: the fenced one took 27–38 s per
// backend on this 2-core machine under load and once passed the default 60 s in CI. A hang still
// fails, at twice that.
const HAMMER_TIMEOUT_MS = 120_000;

/** One hammer test: what it hammers, how hard, on what, through which faults. */
export interface HammerPlan {
  readonly title: string;
  readonly topology: TopologyName;
  readonly backendOptions: BackendOptions;
  /**
   * Independent deployments of `topology`, each with its own client in every worker: 1 unless
   * given; more for kinds that span several (RedLock), whose figures are then recorded under
   * `<adapter>/redlock`.
   */
  readonly deployments?: number;
  readonly subjects: readonly LockSubject<HammerKind>[];
  readonly shape: HammerShape;
  readonly faults: readonly HammerFault[];
  /**
   * Workers connect through fault proxies in front of the first deployment's servers, with this
   * latency for the whole run; the plan needs servers of its own (`dedicated`, or a cluster).
   */
  readonly proxied?: { readonly latency: Delay };
}

/** The hammer of `plan` on every adapter; nothing is registered when it has no subject. */
export function describeHammer(testFile: string, plan: HammerPlan): void {
  if (plan.subjects.length === 0) return;
  const deployments = plan.deployments ?? 1;
  describe.each(backendsOn(plan.topology))(
    `hammer on $adapter/${plan.topology}${deployments > 1 ? ` ×${deployments}` : ''}`,
    ({ adapter }) => {
      const first = useBackendContext(adapter, plan.topology, plan.backendOptions);
      const others = Array.from({ length: deployments - 1 }, () =>
        useBackendContext(adapter, plan.topology, plan.backendOptions),
      );
      const store = useStore();
      afterEach(() => WorkerProcess.killAll());

      it(
        plan.title,
        async () => {
          await hammerAndVerify(testFile, [first, ...others], {
            store: store(),
            subjects: plan.subjects,
            shape: plan.shape,
            faults: plan.faults,
            ...(deployments > 1 ? { scope: `${adapter}/redlock` } : {}),
            ...(plan.proxied ? { proxied: plan.proxied } : {}),
          });
        },
        HAMMER_TIMEOUT_MS,
      );
    },
  );
}
