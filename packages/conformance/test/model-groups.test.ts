// Model-based tests of the lock groups (MultiLock over a plain and a fair lock; RedLock over three
// member locks on clients of their own) on every adapter and topology: random acquisitions with
// generated, named and passed-back owners, fixed leases and the watchdog, waits, releases,
// extends and sleeps, checked after every step for exclusion between distinct owners (in Redis
// and in the hold-interval history) and for every live group being really held.
// Replay a failure with the line it prints: FC_SEED=... FC_PATH=... MODEL_KINDS=... DEADBOLT_BACKENDS=...
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends/index.js';
import { budgetFromEnv, checkGroupModel, formatReport, GROUP_MODEL_KINDS } from '../src/model/index.js';
import { recordModelSteps } from '../src/model/figures.js';
import { useBackendContext } from '../src/SuiteContext.js';

const budget = budgetFromEnv({ runs: 8, steps: 14 });
const only = process.env['MODEL_KINDS']?.split(',').filter(Boolean);
const kinds = GROUP_MODEL_KINDS.filter((kind) => !only || only.includes(kind.name));

describe.each(BACKENDS.map((backend) => [`${backend.adapter}/${backend.topology}`, backend] as const))(
  'model-based groups on %s',
  (_, { adapter, topology }) => {
    const ctx = useBackendContext(adapter, topology);

    for (const kind of kinds) {
      it(`${kind.name} keeps distinct owners apart`, async () => {
        const report = await checkGroupModel(kind, ctx.backend(), budget);
        console.log(formatReport(report));
        recordModelSteps(import.meta.url, ctx.backend().name, report);
        if (report.failure) throw new Error(formatReport(report));
        expect(report.runs).toBeGreaterThan(0);
      }, 240_000);
    }
  },
);
