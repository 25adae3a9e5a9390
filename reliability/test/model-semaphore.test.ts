// Model-based tests of the semaphores (issue 18) on every adapter and topology: random sequences
// of trySetPermits, tryAcquire and acquire (waitTime 0) of 0..4 permits, releases of the grants,
// release(n), addPermits (negative too), drainPermits and availablePermits on two clients, run
// side by side on the real semaphore and on a reference model. After every step: the outcome is
// the model's, Redis's key is the model's (missing, or its available permits), Redis's available
// permits plus those held add up to the permits given, and the hold-interval history never has a
// grant beyond the limit in effect.
// PermitExpirableSemaphore has a model of its own, with leases: 12 runs of 18–30 steps after a
// trySetPermits(4): tryAcquire of 1..3 permits with the watchdog, a short (300 ms) or a long lease,
// release() of an acquisition (again: LockNotHeldError), tryRelease and updateLeaseTime by id
// (again: false), updateLeaseTime of an acquisition, addPermits, trySetPermits, availablePermits,
// and time passing beyond every short lease (a real sleep, also before any step that could meet a
// lease's end). After every step: the outcome, the key, {name}:timeout's members (and whether
// each one's lease ended), whether each acquisition's signal aborted, the count (free + in the
// set = given), and the hold-interval history (a permit is not held after its lease ended).
//
// With late copies and cuts (issue 30), fewer and shorter runs: the second client reaches Redis
// through the backend's fault proxies with a 250 ms commandTimeout, and one step in four (at most
// two a run) makes a change on it (an acquisition, a release, release(n), addPermits,
// drainPermits, trySetPermits) while the proxy holds a copy of its request and delivers it later
// than 2 × commandTimeout, or cuts it and refuses connections for longer than its records live
// (ioredis re-sends it after). A change whose outcome its client did not learn must have run once
// or not at all, and the model takes on whichever Redis shows. After every step, besides the
// above: the permits Redis's holds hash marks as held are exactly those of the model's grants
// (and of acquisitions that ran unknown to their client and could not be given back): none lost
// or invented. The CountDownLatch model is in model-latch.test.ts.
// Replay a failure with the line it prints: FC_SEED=... FC_PATH=... MODEL_KINDS=... [MODEL_FAULTS=1] DEADBOLT_BACKENDS=...
// (MODEL_FAULTS=1 runs only the runs with faults, MODEL_FAULTS=0 only those without.)
import { BACKENDS, useBackendContext } from '@deadbolt/conformance';
import { budgetFromEnv } from '@deadbolt/conformance/model';
import { describe, expect, it } from 'vitest';
import { faultFigures, faultyBudget, modelRunsWanted } from '../src/faults/modelFigures.js';
import { recordFigures } from '../src/results/figures.js';
import { formatSemaphoreReport } from '../src/semaphore/model/checkRuns.js';
import { checkExpirableModel, checkFaultyExpirableModel } from '../src/semaphore/model/runExpirableModel.js';
import { checkFaultySemaphoreModel, checkSemaphoreModel } from '../src/semaphore/model/runSemaphoreModel.js';
import { PERMIT_KINDS } from '../src/semaphore/permitKinds.js';

const budget = budgetFromEnv({ runs: 25, steps: 30 });
const only = process.env['MODEL_KINDS']?.split(',').filter(Boolean);
const kinds = PERMIT_KINDS.filter((kind) => !only || only.includes(kind.id));
const counting = kinds.flatMap((kind) => (kind.leased ? [] : [kind]));
const leased = kinds.flatMap((kind) => (kind.leased ? [kind] : []));
// Every run of a leased kind sleeps past its short leases: fewer, shorter runs.
const leasedBudget = budgetFromEnv({ runs: 12, steps: 30 });
// Every injected fault waits out a late delivery or a partition: few, short runs.
const withFaults = faultyBudget({ runs: 3, steps: 14 });
const leasedWithFaults = faultyBudget({ runs: 3, steps: 14 });
const { plain, faulty } = modelRunsWanted();

describe.each(BACKENDS)('model-based semaphores on $adapter/$topology', ({ adapter, topology }) => {
  // Servers of its own (a standalone one too), for the proxies of the runs with faults.
  const ctx = useBackendContext(adapter, topology, { dedicated: true });

  for (const kind of plain ? counting : []) {
    it(`${kind.id} keeps to the model and never grants beyond its permits`, async () => {
      const report = await checkSemaphoreModel(kind, ctx.backend(), budget);
      console.log(formatSemaphoreReport(report));
      recordFigures(import.meta.url, ctx.backend().name, { modelSteps: report.steps, overlaps: report.excesses });
      if (report.failure) throw new Error(formatSemaphoreReport(report));
      expect(report.runs).toBe(budget.runs);
    });
  }

  for (const kind of faulty ? counting : []) {
    it(`${kind.id} keeps to the model through late copies and cuts: every change counts once or not at all, no permit lost or invented`, async () => {
      const report = await checkFaultySemaphoreModel(kind, ctx.backend(), withFaults);
      console.log(formatSemaphoreReport(report));
      recordFigures(import.meta.url, ctx.backend().name, {
        modelSteps: report.steps,
        overlaps: report.excesses,
        ...faultFigures(report.injected),
      });
      if (report.failure) throw new Error(formatSemaphoreReport(report));
      expect(report.runs).toBe(withFaults.runs);
    });
  }

  for (const kind of faulty ? leased : []) {
    it(`${kind.id} keeps to the model of leases through late copies and cuts: every change counts once or not at all, holders told in time`, async () => {
      const report = await checkFaultyExpirableModel(kind, ctx.backend(), leasedWithFaults);
      console.log(formatSemaphoreReport(report));
      recordFigures(import.meta.url, ctx.backend().name, {
        modelSteps: report.steps,
        overlaps: report.excesses,
        ...faultFigures(report.injected),
      });
      if (report.failure) throw new Error(formatSemaphoreReport(report));
      expect(report.runs).toBe(leasedWithFaults.runs);
    });
  }

  for (const kind of plain ? leased : []) {
    it(`${kind.id} keeps to the model of leases and never grants beyond its permits`, async () => {
      const report = await checkExpirableModel(kind, ctx.backend(), leasedBudget);
      console.log(formatSemaphoreReport(report));
      recordFigures(import.meta.url, ctx.backend().name, { modelSteps: report.steps, overlaps: report.excesses });
      if (report.failure) throw new Error(formatSemaphoreReport(report));
      expect(report.runs).toBe(leasedBudget.runs);
    });
  }
});
