// Issue 32, scenario 3, its clock part: RedLock over 5 independent servers on hosts of their own,
// hammered by 3 client hosts as in chaos-redlock, while the wall clocks of some members jump 5 s
// forward (past the 2 s lease) twice, each right after a grant (ServerClock: Redis expires keys by
// its wall clock). RedLock's drift allowance covers clocks that run at different rates, not a jump.
// When 2 of 5 members jump, their copies of the lock expire at once but the holder keeps 3, a
// quorum, which no other owner can then reach: exclusion must hold, with no overlap and no update
// lost. When 3 of 5 jump (a majority), the promise ends: another owner can take a quorum while the
// holder works on untold until its next renewal. That run measures how often, and is recorded as
// measured, not a promise. Every client host must take the lock again after the first jump.
import { afterEach, describe, expect, test } from 'vitest';
import { hostsGrantedAfter } from '../src/chaos/chaosMeasures.js';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { jumpServerClock } from '../src/chaos/chaosFaults.js';
import { REDLOCK_CHAOS, REDLOCK_MEMBERS as MEMBERS } from '../src/chaos/chaosShape.js';
import { runChaosScenario } from '../src/chaos/runChaosScenario.js';
import { ServerClock } from '../src/chaos/ServerClock.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { backendsOn } from '../src/suite/backends.js';

const JUMP_MS = 5_000;
const JUMPS = 2;

describe.each(backendsOn('standalone'))(
  "chaos on $adapter: RedLock over 5 hosts, some members' wall clocks jump forward",
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test.each([
      { jumping: 2, quorumKept: true },
      { jumping: 3, quorumKept: false },
    ])('$jumping of 5 members jump during holds', async ({ jumping, quorumKept }) => {
      const clock = chaos.clock(new ServerClock());
      const { servers, store, clients } = await startChaosDeployment(await chaos.network(), 3, MEMBERS, (index) =>
        index < jumping ? { environment: clock.environment } : {},
      );
      const [first, ...others] = servers;
      if (first === undefined) throw new Error('no lock server');
      const jumpedAt: number[] = [];
      await runChaosScenario({
        testFile: import.meta.url,
        scenario: `3. RedLock, ${jumping} of ${MEMBERS} members' clocks jump forward`,
        tried:
          `RedLock over ${MEMBERS} servers on hosts of their own, 3 client hosts; the wall clocks of ${jumping} members ` +
          `jumped ${JUMP_MS / 1000} s forward (past the lease) ${JUMPS} times mid-run, each during a hold: ` +
          (quorumKept
            ? 'the holder keeps a quorum, so no other owner can reach one'
            : 'a majority of copies expires at once: measured, not a promise (use a FencedLock whose store checks its token)'),
        measuredOnly: !quorumKept,
        check: (report, figures) => {
          if (quorumKept) {
            expect(figures.overlaps, 'overlapping holds').toBe(0);
            expect(figures.lostUpdates, 'updates lost').toBe(0);
          }
          expect(jumpedAt, 'clock jumps made during holds').toHaveLength(JUMPS);
          expect(
            hostsGrantedAfter(report, Math.min(...jumpedAt)),
            'client hosts that took the lock after the first jump',
          ).toBe(figures.clientHosts);
        },
        run: {
          adapter,
          server: first,
          otherServers: others,
          store,
          clients: clients.map((host) => ({ host })),
          ...REDLOCK_CHAOS,
          label: `redlock-clock${jumping}-${adapter}`,
          faults: Array.from({ length: JUMPS }, () => jumpServerClock(clock, JUMP_MS, jumpedAt)),
        },
      });
    });
  },
);
