// Model-based tests of CountDownLatch (issue 30) on every adapter and topology: random sequences
// of trySetCount (0..3), countDown, getCount, await with a 20 ms wait, delete, and awaits left
// waiting in the background through the steps after them, on two clients, side by side with a
// reference model. After every step: the outcome is the model's, Redis's key is the model's
// count (or missing), and the latch is never seen open (its key gone or at zero, a read of 0, an
// await that returned true, a background await that resolved true) while the model's count is
// above zero: a latch opens only at zero.
//
// With late copies and cuts: the second client reaches Redis through the backend's fault proxies
// with a 250 ms commandTimeout, and one step in four (at most two a run) makes a change on it
// (trySetCount, countDown, delete) while the proxy holds a copy of its request and delivers it
// later than 2 × commandTimeout, which Redis must refuse, or cuts it and refuses connections for
// longer than its records live (ioredis re-sends it after). A change whose outcome its client did
// not learn must have run once or not at all, whichever Redis shows: a late copy never counts twice.
// Replay a failure with the line it prints: FC_SEED=... FC_PATH=... MODEL_KINDS=CountDownLatch [MODEL_FAULTS=1] DEADBOLT_BACKENDS=...
import { BACKENDS, useBackendContext } from '@deadbolt/conformance';
import { budgetFromEnv } from '@deadbolt/conformance/model';
import { describe, expect, it } from 'vitest';
import { faultFigures, faultyBudget, modelRunsWanted } from '../src/faults/modelFigures.js';
import { checkLatchModel } from '../src/latch/runLatchModel.js';
import { recordFigures } from '../src/results/figures.js';
import { formatSemaphoreReport } from '../src/semaphore/model/checkRuns.js';

const budget = budgetFromEnv({ runs: 10, steps: 24 });
const withFaults = faultyBudget({ runs: 3, steps: 14 });
const { plain, faulty } = modelRunsWanted();

describe.each(BACKENDS)('model-based CountDownLatch on $adapter/$topology', ({ adapter, topology }) => {
  // Servers of its own (a standalone one too), for the proxies of the runs with faults.
  const ctx = useBackendContext(adapter, topology, { dedicated: true });

  it.runIf(plain)('keeps to the model: the count is the model’s, and the latch opens only at zero', async () => {
    const report = await checkLatchModel(ctx.backend(), budget);
    console.log(formatSemaphoreReport(report));
    recordFigures(import.meta.url, ctx.backend().name, {
      modelSteps: report.steps,
      latchesOpenedEarly: report.tallies['latches opened early'] ?? 0,
    });
    if (report.failure) throw new Error(formatSemaphoreReport(report));
    expect(report.runs).toBe(budget.runs);
  });

  it.runIf(faulty)(
    'keeps to the model through late copies and cuts: a change counts once or not at all, and the latch opens only at zero',
    async () => {
      const report = await checkLatchModel(ctx.backend(), withFaults, true);
      console.log(formatSemaphoreReport(report));
      recordFigures(import.meta.url, ctx.backend().name, {
        modelSteps: report.steps,
        latchesOpenedEarly: report.tallies['latches opened early'] ?? 0,
        ...faultFigures(report.injected),
      });
      if (report.failure) throw new Error(formatSemaphoreReport(report));
      expect(report.runs).toBe(withFaults.runs);
    },
  );
});
