// Model-based tests of every single-lock kind (Lock, FencedLock, FairLock, ReadWriteLock's two
// halves in one model) on every adapter and topology: random sequences of acquisitions (owners
// generated, named and passed back; fixed leases and the watchdog; waits; nested withLock),
// releases, extends, force-unlocks, sleeps and queries over one lock name from 2 or 3 clients,
// checked after every step against a reference model and Redis's own state.
// Replay a failure with the line it prints: FC_SEED=... FC_PATH=... MODEL_KINDS=... DEADBOLT_BACKENDS=...
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends/index.js';
import { budgetFromEnv, checkModel, formatReport, MODEL_KINDS } from '../src/model/index.js';
import { recordModelSteps } from '../src/model/figures.js';
import { useBackendContext } from '../src/SuiteContext.js';

const budget = budgetFromEnv({ runs: 10, steps: 16 });
const only = process.env['MODEL_KINDS']?.split(',').filter(Boolean);
const kinds = MODEL_KINDS.filter((kind) => !only || only.includes(kind.name));

describe.each(BACKENDS.map((backend) => [`${backend.adapter}/${backend.topology}`, backend] as const))(
  'model-based on %s',
  (_, { adapter, topology }) => {
    const ctx = useBackendContext(adapter, topology);

    for (const kind of kinds) {
      it(`${kind.name} keeps the owner model`, async () => {
        const report = await checkModel(kind, ctx.backend(), budget);
        console.log(formatReport(report));
        recordModelSteps(import.meta.url, ctx.backend().name, report);
        if (report.failure) throw new Error(formatReport(report));
        expect(report.runs).toBeGreaterThan(0);
      }, 240_000);
    }
  },
);
