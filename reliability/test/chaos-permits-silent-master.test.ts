// Issue 32, scenario 6: the semaphores under scenario 1, the master's host going silent during
// holds. Three client hosts, each with a worker of 2 tasks, take one permit each of a semaphore of
// 2, 4 times a task, holding it 400 ms, while the server's host is cut off from every other host
// for 2.5 s (link down: no RST, calls hang). Each holder counts itself at the store, on a host no
// fault touches, while it holds its permit (a leased one's holder stops once told it is lost).
// What must hold: never more holders at once than permits, no grant while cut off, every permit
// free again at the end (none lost for good, none invented), every client host granted again
// after the heal; a leased permit's holder told (or done) before its lease could end.
// And the count-down latch under the same fault: 2 waiters on each client host await a latch of
// 6, counted down from the hosts in turn, the 4th countdown sent while the host is cut off. Each
// countdown call is counted at the store before it is sent: no waiter may be let through before
// 6 were sent, nor while cut off; every waiter is let through once the count reaches 0.
import { afterEach, describe, test } from 'vitest';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { isolateHosts } from '../src/chaos/chaosFaults.js';
import { runChaosPermitScenario } from '../src/chaos/chaosPermitScenario.js';
import { runChaosLatchScenario } from '../src/chaos/runChaosLatch.js';
import { CHAOS_SHAPE } from '../src/chaos/chaosShape.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { PERMIT_KINDS } from '../src/semaphore/permitKinds.js';
import { backendsOn } from '../src/suite/backends.js';

const SILENT_MS = 2_500;
const PERMITS = 2;
const LATCH_COUNT = 6;
const SCENARIO = '6. master host silent during permit holds and latch waits';
const TRIED = `3 client hosts taking permits of a semaphore of ${PERMITS}, or waiting on a count-down latch of ${LATCH_COUNT} that they count down in turn; the master's host cut off (link down, no RST) for ${SILENT_MS} ms mid-run`;

describe.each(backendsOn('standalone'))(
  'chaos on $adapter: the master host goes silent during permit holds',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test.each(PERMIT_KINDS.map((kind) => ({ kind, id: kind.id })))(
      '$id: never more holders than permits, no permit lost for good, every client with grants left recovers',
      async ({ kind }) => {
        const { master, store, clients } = await startChaosDeployment(await chaos.network(), 3);
        await runChaosPermitScenario({
          testFile: import.meta.url,
          scenario: SCENARIO,
          tried: TRIED,
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

    test('CountDownLatch: never opens early, opens for every waiter once counted down', async () => {
      const { master, store, clients } = await startChaosDeployment(await chaos.network(), 3);
      await runChaosLatchScenario({
        testFile: import.meta.url,
        scenario: SCENARIO,
        tried: TRIED,
        run: {
          adapter,
          server: master,
          store,
          clients,
          count: LATCH_COUNT,
          waiters: 2,
          commandTimeout: CHAOS_SHAPE.commandTimeout,
          label: `latch-${adapter}`,
          fault: isolateHosts([master.host], SILENT_MS, { cutOff: true }),
          countdownsBefore: 3,
        },
      });
    });
  },
);
