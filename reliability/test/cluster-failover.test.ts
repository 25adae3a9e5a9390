// A cluster master failed over to its replica while locks of every kind (all in its slot) are held
// and waited for, on both adapters: a manual failover (CLUSTER FAILOVER, no write lost) keeps every
// hold; a master killed (SIGKILL, its replica elected) may lose the latest writes, so each holder
// either keeps its lock or is told it lost it. Waiters recover without hanging, every error is
// typed, nothing is rejected unhandled, and nothing is left behind.
import { eventually, useBackendContext } from '@deadbolt/conformance';
import { LockLostError, RedisUnavailableError, type HeldLock } from '@deadbolt/core';
import { sleep } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { useNoUnhandledRejections } from '../src/checks/unhandledRejections.js';
import { Contention } from '../src/contention/Contention.js';
import { expectContentionHeld, expectHoldersKept } from '../src/contention/expectContentionHeld.js';
import { FaultLog } from '../src/faults/FaultLog.js';
import { failOver, killMaster, rejoin } from '../src/faults/serverFaults.js';
import { subjectsOn } from '../src/kinds.js';
import { backendsOn } from '../src/suite/backends.js';

// A lease that outlasts an election (cluster-node-timeout 2 s, then the vote).
const CLIENT_OPTIONS = { watchdogTimeout: 5_000, commandTimeout: 2_000 };
// Time for the waiters to make their first attempt and subscribe before the fault.
const SETTLE_MS = 300;

describe.each(backendsOn('cluster'))('cluster failover on $adapter/cluster', ({ adapter }) => {
  const ctx = useBackendContext(adapter, 'cluster', { replicas: 1 });
  useNoUnhandledRejections();
  const subjects = subjectsOn('cluster');
  const contend = () =>
    Contention.start(ctx, {
      subjects,
      clientOptions: CLIENT_OPTIONS,
      waitersPerLock: 3,
      waitTime: 60_000,
      oneSlot: true,
    });
  const slotKey = (contention: Contention) => contention.holds[0]?.held.name ?? '';

  it('manual failover: every holder keeps its lock, and waiters get them once released', async () => {
    const contention = await contend();
    await sleep(SETTLE_MS);
    await failOver(ctx.backend(), slotKey(contention));
    const faults = new FaultLog();
    faults.record('cluster manual failover');
    // Only renewals on the new master can keep the locks past a lease.
    await expectHoldersKept(contention, CLIENT_OPTIONS.watchdogTimeout);
    await expectContentionHeld(import.meta.url, ctx, contention, await contention.settled(), faults, {
      kept: () => true,
      waitErrors: [RedisUnavailableError.name],
    });
  });

  it('master killed: each holder keeps its lock or is told it may have lost it, and waiters recover', async () => {
    const contention = await contend();
    await sleep(SETTLE_MS);
    const killed = await killMaster(ctx.backend(), slotKey(contention));
    const faults = new FaultLog();
    faults.record('cluster master killed');
    try {
      // A renewal after the election tells each holder which it is.
      await sleep(CLIENT_OPTIONS.watchdogTimeout);
      const kept = new Set<HeldLock>();
      for (const { held, observer, subject } of contention.holds) {
        if (!held.signal.aborted && (await observer.isHeldBy(held.owner))) kept.add(held);
        else
          expect(
            await eventually(() => held.signal.aborted, 10_000),
            `${subject.label} holder not told it lost its lock`,
          ).toBe(true);
      }
      const released = await contention.releaseHolds();
      contention.holds.forEach(({ held, subject }, index) => {
        if (kept.has(held)) expect(released[index], subject.label).toBe('released');
        else {
          expect(held.signal.reason, subject.label).toBeInstanceOf(LockLostError);
          // Told it lost its lock (the watchdog could not reach Redis in time, or the lock was
          // gone), its release rejects with that loss, having given back what it still found.
          expect(released[index], subject.label).toBe(LockLostError.name);
        }
      });
      await expectContentionHeld(import.meta.url, ctx, contention, await contention.settled(), faults, {
        kept: (held) => kept.has(held),
        waitErrors: [RedisUnavailableError.name],
      });
    } finally {
      await rejoin(ctx.backend(), killed);
    }
  });
});
