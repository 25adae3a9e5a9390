// Wake-ups that never come, for locks of every kind at once, on both adapters, standalone and
// cluster: the waiters' subscriber connections killed (CLIENT KILL) while many wait, and a lock
// that ends by its lease, which publishes nothing. Waiters must get the locks all the same.
import { BACKENDS, useBackendContext } from '@deadbolt/conformance';
import { LockLostError } from '@deadbolt/core';
import { DEFAULT_SUBSCRIBER_NAME } from '@deadbolt/core/adapter';
import { sleep } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { useNoUnhandledRejections } from '../src/checks/unhandledRejections.js';
import { Contention, type WaitOutcome } from '../src/contention/Contention.js';
import { expectContentionHeld } from '../src/contention/expectContentionHeld.js';
import { FaultLog } from '../src/faults/FaultLog.js';
import { killSubscribers } from '../src/faults/serverFaults.js';
import { subjectsOn } from '../src/kinds.js';

const CLIENT_OPTIONS = { watchdogTimeout: 1_500 };
// Time for the waiters to make their first attempt and subscribe before the fault.
const SETTLE_MS = 300;

describe.each(BACKENDS)('lost wake-ups on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  useNoUnhandledRejections();
  const subjects = subjectsOn(topology);

  const finish = (contention: Contention, outcomes: readonly WaitOutcome[], faults: FaultLog) =>
    expectContentionHeld(import.meta.url, ctx, contention, outcomes, faults, { kept: () => true, waitErrors: [] });

  it('subscriber connections killed while many wait: every waiter still gets its lock once released', async () => {
    const contention = await Contention.start(ctx, {
      subjects,
      clientOptions: CLIENT_OPTIONS,
      waitersPerLock: 5,
      waitTime: 30_000,
    });
    await sleep(SETTLE_MS);
    await killSubscribers(ctx.backend(), DEFAULT_SUBSCRIBER_NAME);
    const faults = new FaultLog();
    faults.record('subscriber CLIENT KILL');
    expect(await contention.releaseHolds()).toEqual(contention.holds.map(() => 'released'));
    await finish(contention, await contention.settled(), faults);
  });

  it('a lock that ends by its lease publishes nothing: its waiters still get it when the lease ends', async () => {
    const leaseTime = 1_000;
    // A wait that outlives the lease by less than it would take to notice by other means than the TTL.
    const waitTime = leaseTime + 4_000;
    const contention = await Contention.start(ctx, {
      subjects,
      clientOptions: CLIENT_OPTIONS,
      waitersPerLock: 2,
      waitTime,
      leaseTime,
    });
    const faults = new FaultLog();
    contention.holds.forEach(() => faults.record('publish lost'));
    const outcomes = await contention.settled();
    for (const { held, requested, subject } of contention.holds) {
      const first = Math.min(
        ...outcomes
          .filter((outcome) => outcome.subject === subject.label)
          .map((outcome) => outcome.interval?.start ?? Infinity),
      );
      expect(first - requested, `${subject.label} taken before the lease ended`).toBeGreaterThanOrEqual(leaseTime - 5);
      await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
    }
    await finish(contention, outcomes, faults);
  });
});
