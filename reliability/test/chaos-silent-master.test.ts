// Issue 32, scenario 1: the lock server's host goes silent during holds. Three client hosts, each
// with a worker process of 2 tasks per lock, hammer a `Lock` and a `FencedLock` on a standalone
// server (a shared counter in a store on a host of its own checks for lost updates) while the
// server's host is cut off from every other host for 2.5 s: its link goes down, so no RST, no
// ICMP, and every client connection stays open with its calls hanging (half-open connections).
// The lease (1.5 s) ends on the server meanwhile. What must hold: every hold open at the cut-off
// is told (its signal aborts) before its lease could have ended; no failed release try lasts longer
// than commandTimeout (500 ms) and no failed acquire try longer than its turn (a lease) plus
// commandTimeout; nothing overlaps, no update is lost; every client host takes locks again once the
// host is back.
import { afterEach, describe, test } from 'vitest';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { isolateHosts } from '../src/chaos/chaosFaults.js';
import { CHAOS_SHAPE, chaosSubjects } from '../src/chaos/chaosShape.js';
import { runChaosScenario } from '../src/chaos/runChaosScenario.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { backendsOn } from '../src/suite/backends.js';

const SILENT_MS = 2_500;

describe.each(backendsOn('standalone'))(
  'chaos on $adapter: the master host goes silent during holds',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test('holders are told before their lease ends, no call hangs past commandTimeout, nothing overlaps, every client recovers', async () => {
      const { master, store, clients } = await startChaosDeployment(await chaos.network(), 3);
      await runChaosScenario({
        testFile: import.meta.url,
        scenario: '1. master host silent during holds',
        tried: `3 client hosts; the master's host cut off (link down, no RST) for ${SILENT_MS} ms mid-run`,
        run: {
          adapter,
          server: master,
          store,
          clients: clients.map((host) => ({ host })),
          subjects: chaosSubjects(),
          shape: CHAOS_SHAPE,
          label: `silent-${adapter}`,
          faults: [isolateHosts([master.host], SILENT_MS, { cutOff: true })],
        },
      });
    });
  },
);
