import { useBackendContext, type BackendOptions, type TopologyName } from '@deadbolt/conformance';
import { afterEach, describe, it } from 'vitest';
import type { LockSubject } from '../kinds.js';
import { WorkerProcess } from '../process/WorkerProcess.js';
import { backendsOn } from '../suite/backends.js';
import { useStore } from '../store/useStore.js';
import { hammerAndVerify } from './hammerAndVerify.js';
import type { HammerShape } from './hammerShape.js';
import type { HammerFault } from './runHammer.js';

/** One hammer test: what it hammers, how hard, on what, through which faults. */
export interface HammerPlan {
  readonly title: string;
  readonly topology: TopologyName;
  readonly backendOptions: BackendOptions;
  readonly subjects: readonly LockSubject[];
  readonly shape: HammerShape;
  readonly faults: readonly HammerFault[];
}

/** The hammer of `plan` on every adapter; nothing is registered when it has no subject. */
export function describeHammer(testFile: string, plan: HammerPlan): void {
  if (plan.subjects.length === 0) return;
  describe.each(backendsOn(plan.topology))(`hammer on $adapter/${plan.topology}`, ({ adapter }) => {
    const ctx = useBackendContext(adapter, plan.topology, plan.backendOptions);
    const store = useStore();
    afterEach(() => WorkerProcess.killAll());

    it(plan.title, async () => {
      await hammerAndVerify(testFile, ctx, { store: store(), subjects: plan.subjects, shape: plan.shape, faults: plan.faults });
    });
  });
}
