// Issue 32, scenario 3: RedLock over 5 independent servers, each on a host of its own, hammered by
// 3 client hosts (a worker each, one lock client per server) with the shared-counter check. Right
// after a grant, 2 of the 5 hosts go silent for 2.5 s: the holders keep their quorum of 3, so no
// hold may be lost at all. Then, in a run of its own, 3 of the 5 go silent: the quorum is lost, so
// no lock may be granted while they are away, every hold open then must be told (or have called its
// release) before its lease could end, and every client host takes the lock again once they are back. No overlap, no update
// lost, either way.
import { afterEach, describe, test } from 'vitest';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { isolateHosts } from '../src/chaos/chaosFaults.js';
import { REDLOCK_CHAOS, REDLOCK_MEMBERS as MEMBERS } from '../src/chaos/chaosShape.js';
import { runChaosScenario } from '../src/chaos/runChaosScenario.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { backendsOn } from '../src/suite/backends.js';

const SILENT_MS = 2_500;

describe.each(backendsOn('standalone'))(
  'chaos on $adapter: RedLock over 5 hosts, some of them silent',
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test.each([
      { silent: 2, quorumKept: true },
      { silent: 3, quorumKept: false },
    ])('$silent of 5 members silent during holds', async ({ silent, quorumKept }) => {
      const { servers, store, clients } = await startChaosDeployment(await chaos.network(), 3, MEMBERS);
      const [first, ...others] = servers;
      if (first === undefined) throw new Error('no lock server');
      await runChaosScenario({
        testFile: import.meta.url,
        scenario: `3. RedLock, ${silent} of ${MEMBERS} members silent`,
        tried:
          `RedLock over ${MEMBERS} servers on hosts of their own, 3 client hosts; ${silent} member hosts cut off ` +
          `(link down) for ${SILENT_MS} ms mid-run: ${quorumKept ? 'the quorum is kept, no hold may be lost' : 'the quorum is lost, no grant while cut off, holders told or out in time'}`,
        // A RedLock hold whose release was called and failed on a majority is told by that release's
        // error, not by its signal (see the README).
        signalsMustAbort: false,
        run: {
          adapter,
          server: first,
          otherServers: others,
          store,
          clients: clients.map((host) => ({ host })),
          ...REDLOCK_CHAOS,
          label: `redlock${silent}-${adapter}`,
          faults: [
            isolateHosts(
              servers.slice(0, silent).map((server) => server.host),
              SILENT_MS,
              { cutOff: !quorumKept },
            ),
          ],
        },
      });
    });
  },
);
