// Issue 32, scenario 4: clients whose wall clock jumps or runs at another rate. Three client hosts
// hammer a `Lock` and a `FencedLock` as in chaos-silent-master, each worker on a wall clock of its
// own (libfaketime; timers and the monotonic clock stay true): client1's jumps an hour ahead
// mid-run and later an hour back, client2's runs 1.5 × fast, client3's 1.5 × slow. Midway the
// master's host goes silent for 2.5 s, so that holders must be told. Lease timers, the watchdog
// and waits run on the monotonic clock: holds are kept (none lost but at the cut-off), every hold
// open at the cut-off is told before its lease could end, and the rest of chaos-silent-master's
// checks hold as well.
import { afterEach, describe, test } from 'vitest';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { isolateHosts, jumpClock } from '../src/chaos/chaosFaults.js';
import { CHAOS_SHAPE, chaosSubjects } from '../src/chaos/chaosShape.js';
import { ProcessClock } from '../src/chaos/ProcessClock.js';
import { runChaosScenario } from '../src/chaos/runChaosScenario.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { backendsOn } from '../src/suite/backends.js';

const SILENT_MS = 2_500;

describe.each(backendsOn('standalone'))('chaos on $adapter: client wall clocks jump and drift', ({ adapter }) => {
  const chaos = useChaos();
  afterEach(() => WorkerProcess.killAll());

  test('holds are kept and holders told in time whatever their wall clock says', async () => {
    const { master, store, clients } = await startChaosDeployment(await chaos.network(), 3);
    const jumping = chaos.clock(new ProcessClock('+0', 'wall'));
    const clocks = [
      jumping,
      chaos.clock(new ProcessClock('+0 x1.5', 'wall')),
      chaos.clock(new ProcessClock('+0 x0.6667', 'wall')),
    ];
    await runChaosScenario({
      testFile: import.meta.url,
      scenario: '4. client wall clocks jump and drift',
      tried:
        `3 client hosts, wall clocks: one jumps +1 h then -1 h mid-run, one runs 1.5 × fast, one 1.5 × slow; ` +
        `the master's host cut off (link down) for ${SILENT_MS} ms between the jumps`,
      run: {
        adapter,
        server: master,
        store,
        clients: clients.map((host, index) => ({ host, clock: clocks[index] })),
        subjects: chaosSubjects(),
        shape: CHAOS_SHAPE,
        label: `clocks-${adapter}`,
        faults: [
          jumpClock(jumping, '+3600'),
          isolateHosts([master.host], SILENT_MS, { cutOff: true }),
          jumpClock(jumping, '-3600'),
        ],
      },
    });
  });
});
