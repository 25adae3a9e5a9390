// A Java service using Redisson and Node services using Deadbolt on the same locks, on both
// adapters, standalone and cluster. The Java side is the Redisson peer of @deadbolt/conformance
// (Redisson's scripts, arguments, pub/sub waits, LockTask and ReadLockTask), with a 1 s
// lockWatchdogTimeout. Hammer: 2 Deadbolt clients × 2 tasks and 2 peer threads per lock take turns
// on a Lock, a FairLock and a ReadWriteLock (readers mixed with writers), the peer's holds kept by
// its renewal tasks (one outlasts its lease), each hold a non-atomic increment of a guarded
// counter: the hammer's overlap and lost-update check. Fault: the peer stops renewing while it
// holds a lock of each kind (a Java process that died): Deadbolt's waiters get the locks once the
// leases ran out, never before.
import { BACKENDS, REDISSON_BACKOFF, useBackendContext, useRedissonPeers } from '@deadbolt/conformance';
import { SPIN_LOCK } from '@deadbolt/conformance/kinds';
import { sleep } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { expectNothingLeft } from '../src/checks/nothingLeft.js';
import { useNoUnhandledRejections } from '../src/checks/unhandledRejections.js';
import { FaultLog } from '../src/faults/FaultLog.js';
import { findOverlaps, type HoldInterval } from '../src/hammer/overlaps.js';
import { earliestEnds, waitOnEach, type Waiter } from '../src/holder/holderRun.js';
import { subjectsOn } from '../src/kinds.js';
import { hasRedissonCounterpart, redissonCounterpart } from '../src/redisson/redissonCounterpart.js';
import { runRedissonHammer, type HoldTurn } from '../src/redisson/runRedissonHammer.js';
import { expectRedissonHammerHeld, redissonHammerFigures } from '../src/redisson/verifyRedissonHammer.js';
import { recordFigures } from '../src/results/figures.js';
import { useStore } from '../src/store/useStore.js';

// Both sides' watchdog lease: the peer's lockWatchdogTimeout (renewed every third of it) and
// Deadbolt's watchdogTimeout.
const WATCHDOG = 1_000;
// A hold's work between its read and its write, mostly; some holds are longer (see workMs).
const WORK_MS = 2;
// Past a renewal interval of either side's watchdog.
const PAST_RENEWAL_MS = 450;
// Past the whole lease: only the peer's renewals keep such a hold.
const PAST_LEASE_MS = 1_300;
// Between a task's (or thread's) holds.
const PAUSE_MS = 10;
// Between holds of a spin lock, whose waiters poll up to REDISSON_BACKOFF.maxDelay apart on both
// sides instead of being woken. With PAUSE_MS, the tasks of one side that had just held it kept
// taking it back before the other side's pollers looked again: 3 changes of side in a CI run.
const POLLED_PAUSE_MS = REDISSON_BACKOFF.maxDelay + 20;
const WAIT_TIME = 20_000;
// Each lock must change sides at least this often in a run.
const MIN_HANDOFFS = 5;
// Redis reports TTLs in whole milliseconds and keeps time on the wall clock.
const CLOCK_SLACK_MS = 5;

/** Mostly short holds; per lock, one peer hold past its lease and one hold of each side past a renewal interval. */
function workMs({ side, task, iteration }: HoldTurn): number {
  if (side === 'redisson' && task === 0 && iteration === 1) return PAST_LEASE_MS;
  if (task === 1 && iteration === 3) return PAST_RENEWAL_MS;
  return WORK_MS;
}

/** The waiters whose wait has ended, by label, without waiting for the others. */
async function takenSoFar(waiters: readonly Waiter[]): Promise<string[]> {
  const pending = Symbol('pending');
  const states = await Promise.all(
    waiters.map(({ taken }) =>
      Promise.race([
        taken.then(
          () => true,
          () => true,
        ),
        Promise.resolve(pending),
      ]),
    ),
  );
  return waiters.filter((_, index) => states[index] !== pending).map(({ subject }) => subject.label);
}

describe.each(BACKENDS)('Redisson peer and Deadbolt on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology, topology === 'standalone' ? { dedicated: true } : {});
  const peers = useRedissonPeers(ctx);
  const store = useStore();
  useNoUnhandledRejections();
  const subjects = subjectsOn(topology).filter(hasRedissonCounterpart);

  it('Redisson threads and Deadbolt tasks take turns on each lock: no two owners at once, no update lost, the peer’s renewals keep its holds', async () => {
    const clients = [await ctx.client({ watchdogTimeout: WATCHDOG }), await ctx.client({ watchdogTimeout: WATCHDOG })];
    const java = await peers.start({ lockWatchdogTimeout: WATCHDOG });
    const report = await runRedissonHammer({
      clients,
      peer: java,
      store: store(),
      subjects,
      label: ctx.uniqueName('redisson-hammer'),
      tasksPerClient: 2,
      threadsPerSubject: 2,
      holdsPerTask: 8,
      workMs,
      pauseMs: ({ subject }) => (subjects[subject]?.kind.id === SPIN_LOCK.id ? POLLED_PAUSE_MS : PAUSE_MS),
      waitTime: WAIT_TIME,
    });
    const figures = redissonHammerFigures(report);
    recordFigures(import.meta.url, ctx.backend().name, figures);
    expect(figures.overlaps).toBe(0);
    expect(figures.lostUpdates).toBe(0);
    expectRedissonHammerHeld(report, MIN_HANDOFFS);

    expect(java.renewals.lockTask.names, 'locks the peer still renews').toEqual([]);
    expect(java.renewals.readLockTask.names, 'read locks the peer still renews').toEqual([]);
    const locks = subjects.map((subject) =>
      subject.kind.create(clients.slice(0, 1), report.lockNames.get(subject.kind.id) ?? '', subject.role.name),
    );
    await expectNothingLeft(ctx.backend(), clients, locks);
  });

  it('a Redisson process that stops renewing keeps its locks until their leases run out, and Deadbolt waiters get them then, never before', async () => {
    const java = await peers.start({ lockWatchdogTimeout: WATCHDOG });
    const client = await ctx.client({ watchdogTimeout: WATCHDOG });
    const names = subjects.map((subject) => ctx.uniqueName(`java-dies:${subject.label}`));
    // A thread of the Java process holds a lock of each kind in each role, without a lease.
    const peerStarts = await Promise.all(
      subjects.map(async (subject, index) => {
        await redissonCounterpart(java, subject, names[index] ?? '').lock(java.newThreadId());
        return performance.now();
      }),
    );
    const waiters = waitOnEach(client, subjects, { names }, WAIT_TIME);
    // Renewed, the locks outlast a whole lease while Deadbolt waits for them.
    await sleep(WATCHDOG * 1.5);
    expect(await takenSoFar(waiters), 'taken from a live Redisson process').toEqual([]);
    expect(java.renewals.lockTask.runs).toBeGreaterThan(0);
    expect(java.renewals.readLockTask.runs).toBeGreaterThan(0);
    const renewals = java.renewals.lockTask.runs + java.renewals.readLockTask.runs;

    java.stopRenewals();
    const faults = new FaultLog();
    faults.record('Redisson peer stopped renewing');
    const ends = await earliestEnds(waiters);
    const taken = await Promise.all(waiters.map((waiter) => waiter.taken));
    taken.forEach(({ at }, index) => {
      const label = waiters[index]?.subject.label;
      const end = ends[index] ?? NaN;
      expect(at, `${label} taken before the Redisson lease ended`).toBeGreaterThanOrEqual(end - CLOCK_SLACK_MS);
      expect(at - end, `${label} taken long after the Redisson lease ended`).toBeLessThan(5_000);
    });
    const releasedAt = performance.now();
    await Promise.all(taken.map(({ held }) => held.release()));

    // The peer held each lock until its lease ended at the earliest; Deadbolt's hold came after.
    const intervals: HoldInterval[] = waiters.flatMap(({ subject, lock }, index) => [
      {
        lock: lock.name,
        owner: `redisson:${java.id}`,
        pid: process.pid,
        exclusive: subject.role.exclusive,
        start: peerStarts[index] ?? NaN,
        end: ends[index] ?? NaN,
      },
      {
        lock: lock.name,
        owner: `deadbolt:${client.id}`,
        pid: process.pid,
        exclusive: true,
        start: taken[index]?.at ?? NaN,
        end: releasedAt,
      },
    ]);
    expect(findOverlaps(intervals, [], 0), 'overlapping holds').toEqual([]);
    recordFigures(import.meta.url, ctx.backend().name, {
      faults: faults.counts,
      operations: taken.length,
      redissonPeerHolds: subjects.length,
      redissonPeerRenewals: renewals,
    });
    await expectNothingLeft(
      ctx.backend(),
      [client],
      waiters.map(({ lock }) => lock),
    );
  });
});
