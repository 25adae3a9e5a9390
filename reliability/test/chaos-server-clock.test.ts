// Issue 32, scenario 5: the lock server's wall clock jumps forward during holds. Three client
// hosts hammer a `Lock` and a `FencedLock` as in chaos-silent-master, on a server whose wall clock
// (ServerClock: Redis expires keys by it) jumps 5 s ahead, past the 2 s lease, three times mid-run,
// each during a hold. Every lease open then ends at once on the server: another client can take the
// lock while its holder still works, which no Redis lock can prevent. So this measures, lock by
// lock, and records: how many holders were told (their signal aborted: the watchdog's next renewal
// found the lock gone) and how long they worked on untold, and how many holds overlapped. What
// must hold: the fenced store refuses every stale holder's write (no update lost on the
// `FencedLock`), and every client host takes locks again after the first jump.
import { afterEach, describe, expect, test } from 'vitest';
import { chaosMeasures, hostsGrantedAfter, type ChaosMeasures } from '../src/chaos/chaosMeasures.js';
import { startChaosDeployment } from '../src/chaos/chaosDeployment.js';
import { jumpServerClock } from '../src/chaos/chaosFaults.js';
import { recordChaos, type ChaosRecord } from '../src/chaos/chaosRecord.js';
import { CHAOS_SHAPE, chaosSubjects } from '../src/chaos/chaosShape.js';
import { clockJumpMeasures, type ClockJumpMeasures } from '../src/chaos/clockJumpMeasures.js';
import { runChaosHammer, type ChaosHammerReport } from '../src/chaos/runChaosHammer.js';
import { ServerClock } from '../src/chaos/ServerClock.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { hammerFigures } from '../src/hammer/verifyHammer.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { backendsOn } from '../src/suite/backends.js';

const JUMP_MS = 5_000;
const JUMPS = 3;
const SCENARIO = '5. lock server clock jumps forward during holds';

describe.each(backendsOn('standalone'))(
  "chaos on $adapter: the lock server's wall clock jumps forward during holds",
  ({ adapter }) => {
    const chaos = useChaos();
    afterEach(() => WorkerProcess.killAll());

    test('what holders are told and how often holds overlap is measured; the fenced store refuses every stale write', async () => {
      const started = performance.now();
      const clock = chaos.clock(new ServerClock());
      const network = await chaos.network();
      const { master, store, clients } = await startChaosDeployment(network, 3, 1, { environment: clock.environment });
      const jumpedAt: number[] = [];
      const shape = CHAOS_SHAPE;
      const subjects = chaosSubjects();
      const report = await runChaosHammer({
        adapter,
        server: master,
        store,
        clients: clients.map((host) => ({ host })),
        subjects,
        shape,
        label: `server-clock-${adapter}`,
        faults: Array.from({ length: JUMPS }, () => jumpServerClock(clock, JUMP_MS, jumpedAt)),
      });
      // No cut-off: the silent-host measures count nothing at a fault. Recovery is counted from the
      // first jump: a worker may have done its holds before the last one.
      const recovery = {
        ...chaosMeasures(report, shape.watchdogTimeout),
        recoveredHosts: hostsGrantedAfter(report, Math.min(...jumpedAt)),
      };
      const figures = hammerFigures(report);
      const byLock = clockJumpMeasures(report, jumpedAt, subjects);
      const recovered = recovery.recoveredHosts === recovery.clientHosts;
      for (const lock of byLock)
        recordLock(report, lock, {
          ...recovery,
          adapter,
          held: recovered && fencedHeld(lock),
          durationMs: Math.round(performance.now() - started),
        });
      expect(figures.operations, 'holds released').toBeGreaterThan(0);
      expect(
        byLock.reduce((sum, lock) => sum + lock.holdsAtJump, 0),
        'holds open when the clock jumped',
      ).toBeGreaterThan(0);
      expect(byLock.every(fencedHeld), `updates lost on a fenced lock: ${JSON.stringify(byLock)}`).toBe(true);
      expect(recovery.recoveredHosts, 'client hosts that took a lock after the first jump').toBe(recovery.clientHosts);
    });
  },
);

// A lock with fencing tokens (its stale writes counted) must lose no update; one without may.
function fencedHeld(lock: ClockJumpMeasures): boolean {
  return lock.staleWritesRefused === undefined || lock.lostUpdates === 0;
}

// Records one lock of a run for results/chaos.*, and prints it.
function recordLock(
  report: ChaosHammerReport,
  lock: ClockJumpMeasures,
  run: ChaosMeasures & Pick<ChaosRecord, 'adapter' | 'held' | 'durationMs'>,
): void {
  const holds = report.holds.filter((hold) => hold.subject === lock.subject);
  const record = {
    ...run,
    testFile: import.meta.url,
    scenario: SCENARIO,
    lock: lock.subject,
    tried: `3 client hosts; the lock server's wall clock jumped ${JUMP_MS / 1000} s forward (past the lease) ${JUMPS} times mid-run, each during a hold`,
    faults: report.faults.total,
    operations: holds.filter((hold) => hold.outcome === 'released').length,
    overlaps: lock.overlaps,
    lostUpdates: lock.lostUpdates,
    holdsLost: holds.filter((hold) => hold.lost || hold.outcome === 'not-held').length,
    holdsAtFault: lock.holdsAtJump,
    holdsTold: lock.holdsTold,
    slowestToldMs: lock.slowestToldMs,
    ...(lock.staleWritesRefused === undefined ? {} : { staleWritesRefused: lock.staleWritesRefused }),
    leaseMs: CHAOS_SHAPE.watchdogTimeout,
    commandTimeoutMs: CHAOS_SHAPE.commandTimeout,
  };
  console.log(`chaos ${SCENARIO} on ${run.adapter}: ${JSON.stringify({ ...record, testFile: undefined })}`);
  recordChaos(record);
}
