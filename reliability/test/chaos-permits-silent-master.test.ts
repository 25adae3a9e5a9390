// Issue 32, scenario 6: the semaphores under scenario 1, the master's host going silent during
// holds. Three client hosts, each with a worker of 2 tasks, take one permit each of a semaphore of
// 2, 4 times a task, holding it 400 ms, while the server's host is cut off from every other host
// for 2.5 s (link down: no RST, calls hang). Each holder counts itself at the store, on a host no
// fault touches, while it holds its permit (a leased one's holder stops once told it is lost).
// What must hold: never more holders at once than permits, no grant while cut off, every permit
// free again at the end (none lost for good, none invented), every client host granted again
// after the heal; a leased permit's holder told (or done) before its lease could end.
import { afterEach, describe, test } from 'vitest';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { isolateHosts } from '../src/chaos/chaosFaults.js';
import { runChaosPermitScenario } from '../src/chaos/chaosPermitScenario.js';
import { CHAOS_SHAPE } from '../src/chaos/chaosShape.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { PERMIT_KINDS } from '../src/semaphore/permitKinds.js';
import { backendsOn } from '../src/suite/backends.js';

const SILENT_MS = 2_500;
const PERMITS = 2;

describe.each(backendsOn('standalone'))(
  'chaos on $adapter: the master host goes silent during permit holds',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test.each(PERMIT_KINDS.map((kind) => ({ kind, id: kind.id })))(
      '$id: never more holders than permits, no permit lost for good, every client recovers',
      async ({ kind }) => {
        const { master, store, clients } = await startChaosDeployment(await chaos.network(), 3);
        await runChaosPermitScenario({
          testFile: import.meta.url,
          scenario: '6. master host silent during permit holds',
          tried: `3 client hosts taking permits of a semaphore of ${PERMITS}; the master's host cut off (link down, no RST) for ${SILENT_MS} ms mid-run`,
          run: {
            adapter,
            kind,
            server: master,
            store,
            clients,
            permits: PERMITS,
            tasks: 2,
            holdsPerTask: 4,
            workMs: CHAOS_SHAPE.workMs,
            watchdogTimeout: CHAOS_SHAPE.watchdogTimeout,
            commandTimeout: CHAOS_SHAPE.commandTimeout,
            label: `permits-${adapter}-${kind.id}`,
            faults: [isolateHosts([master.host], SILENT_MS, { cutOff: true })],
          },
        });
      },
    );
  },
);
