// Every other single-lock kind, in each of its roles, on a Sentinel deployment (a master, two
// replicas, three Sentinels) on the adapters with a Sentinel client: the suites sentinel.test.ts
// runs for the plain Lock. The kinds share one deployment per adapter; the failovers are
// sentinel.test.ts's.
import { describe } from 'vitest';
import { SENTINEL_BACKENDS } from '../src/backends/index.js';
import { LOCK, SINGLE_LOCK_KINDS, subjectsOf } from '../src/kinds/index.js';
import { LOCK_SUITES, type LockSuiteName } from '../src/lockConformance.js';
import { suiteContextOn, useBackendContext } from '../src/SuiteContext.js';

const SUITES: readonly LockSuiteName[] = ['exclusion', 'reentrancy', 'waiting'];
// A shared role (the read lock) keeps nobody out: its suites are those of its own conformance file.
const SHARED_ROLE_SUITES: readonly LockSuiteName[] = ['reentrancy', 'sharedHolds'];
const SUBJECTS = subjectsOf(SINGLE_LOCK_KINDS.filter((kind) => kind !== LOCK));

describe.each(SENTINEL_BACKENDS)('every lock kind on $adapter/$topology', ({ adapter, topology }) => {
  const backend = useBackendContext(adapter, topology);
  for (const subject of SUBJECTS) {
    describe(subject.label, () => {
      const ctx = suiteContextOn(backend, subject);
      for (const suite of subject.role.exclusive ? SUITES : SHARED_ROLE_SUITES)
        describe(suite, () => LOCK_SUITES[suite](ctx));
    });
  }
});
