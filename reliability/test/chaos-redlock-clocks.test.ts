// Issue 32, scenario 3, its clock part: RedLock over 5 independent servers on hosts of their own,
// hammered by 3 client hosts as in chaos-redlock, while the wall clocks of 1, 2 or 3 members jump 5 s
// forward (past the 2 s lease) twice, each right after a grant (ServerClock: Redis expires keys by
// its wall clock). RedLock's drift allowance covers clocks that run at different rates, not a jump:
// a jump expires the copies on the jumping members at once, and exclusion then rests on the
// holder's copies on the others. A round counts as won at a quorum, so a holder often has only 3
// of 5 copies (the others still held by a losing round); when a jumping member is one of those 3,
// another owner can take a quorum while the holder works on untold until its next renewal
// (Kleppmann's objection to Redlock): a single member's jump can break exclusion. So no row is a
// promise (each is recorded as measured), but what RedLock's argument does promise is checked in
// every run: right before each jump the test reads whose copy each member holds, and when every
// jump left the holder a quorum of copies on members whose clocks stayed true, there must be no
// overlap and no update lost. Every client host must take the lock again after the first jump.
import { afterEach, describe, expect, test } from 'vitest';
import { hostsGrantedAfter } from '../src/chaos/chaosMeasures.js';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { jumpServerClock } from '../src/chaos/chaosFaults.js';
import { hammerLockName } from '../src/hammer/hammerEvents.js';
import { holderCopies, quorumStayedTrue, type CopiesAtJump } from '../src/chaos/redlockCopies.js';
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

    test.each([1, 2, 3])('%i of 5 members jump during holds', async (jumping) => {
      const clock = chaos.clock(new ServerClock());
      const { servers, store, clients } = await startChaosDeployment(await chaos.network(), 3, MEMBERS, (index) =>
        index < jumping ? { environment: clock.environment } : {},
      );
      const [first, ...others] = servers;
      if (first === undefined) throw new Error('no lock server');
      const label = `redlock-clock${jumping}-${adapter}`;
      const lockKey = hammerLockName(label, 'RedLock');
      const jumpedAt: number[] = [];
      const copiesAtJumps: CopiesAtJump[] = [];
      const readCopies = async () => void copiesAtJumps.push(await holderCopies(servers, lockKey, jumping));
      await runChaosScenario({
        testFile: import.meta.url,
        scenario: `3. RedLock, ${jumping} of ${MEMBERS} members' clocks jump forward`,
        tried:
          `RedLock over ${MEMBERS} servers on hosts of their own, 3 client hosts; the wall clocks of ${jumping} ` +
          `member${jumping === 1 ? '' : 's'} jumped ${JUMP_MS / 1000} s forward (past the lease) ${JUMPS} times ` +
          'mid-run, each during a hold: measured, not a promise (a holder granted a bare quorum loses it to one ' +
          'jumping member; use a FencedLock whose store checks its token); checked: no overlap when every jump ' +
          'left the holder a quorum of copies on members whose clocks stayed true',
        measuredOnly: true,
        copiesAtJumps,
        check: (report, figures) => {
          if (quorumStayedTrue(copiesAtJumps, MEMBERS)) {
            expect(figures.overlaps, 'overlapping holds though the holder kept a quorum on true clocks').toBe(0);
            expect(figures.lostUpdates, 'updates lost though the holder kept a quorum on true clocks').toBe(0);
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
          label,
          faults: Array.from({ length: JUMPS }, () => jumpServerClock(clock, JUMP_MS, jumpedAt, readCopies)),
        },
      });
    });
  },
);
