// A holder process killed (SIGKILL) or frozen past its lease (SIGSTOP), for a lock of every kind
// in every role at once, on both adapters, standalone and cluster. Waiters in the test process
// wait in each kind's exclusive role (a read hold is waited on by a writer).
import { BACKENDS, eventually, useBackendContext } from '@deadbolt/conformance';
import { LockLostError } from '@deadbolt/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FaultLog } from '../src/faults/FaultLog.js';
import { earliestEnds, startHolder, waitOnEach, type Waiter } from '../src/holder/holderRun.js';
import { subjectsOn } from '../src/kinds.js';
import { WorkerProcess } from '../src/process/WorkerProcess.js';
import { recordFigures } from '../src/results/figures.js';
import { resourceKeys, ResourceStore } from '../src/store/ResourceStore.js';
import { useStore } from '../src/store/useStore.js';
import { sleep } from '@deadbolt/test-harness';

const LEASE = 1_500;
const WAIT_TIME = 20_000;
// Time for the waiters to make their first attempt and subscribe before the fault.
const SETTLE_MS = 300;
// Redis reports TTLs in whole milliseconds and keeps time on the wall clock.
const CLOCK_SLACK_MS = 5;

describe.each(BACKENDS)('holder process faults on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const store = useStore();
  const subjects = subjectsOn(topology);
  afterEach(() => WorkerProcess.killAll());

  const start = async () => {
    const holder = await startHolder({
      backend: ctx.backend(),
      store: store(),
      subjects,
      watchdogTimeout: LEASE,
      uniqueName: ctx.uniqueName,
    });
    const client = await ctx.client({ watchdogTimeout: LEASE });
    const waiters = waitOnEach(client, subjects, holder, WAIT_TIME);
    await sleep(SETTLE_MS);
    return { holder, client, waiters };
  };

  /** Each lock is taken by its waiter no earlier than its lease allowed, and soon after. */
  const expectTakenAfterLease = async (waiters: readonly Waiter[], ends: readonly number[]) => {
    const taken = await Promise.all(waiters.map((waiter) => waiter.taken));
    taken.forEach(({ at }, index) => {
      const label = waiters[index]?.subject.label;
      const end = ends[index] ?? NaN;
      expect(at, `${label} taken before its lease ended`).toBeGreaterThanOrEqual(end - CLOCK_SLACK_MS);
      expect(at - end, `${label} taken long after its lease ended`).toBeLessThan(5_000);
    });
    return taken.map(({ held }) => held);
  };

  it('SIGKILL: each lock is free after its lease and not before, and its waiter gets it then', async () => {
    const { holder, waiters } = await start();
    expect(await Promise.all(waiters.map(({ lock }) => lock.tryAcquire()))).toEqual(waiters.map(() => null));
    await holder.worker.kill();
    const faults = new FaultLog();
    faults.record('holder process SIGKILL');
    const held = await expectTakenAfterLease(waiters, await earliestEnds(waiters));
    await Promise.all(held.map((hold) => hold.release()));
    recordFigures(import.meta.url, ctx.backend().name, { faults: faults.counts, operations: held.length });
    // A subscription lingers a moment after its last waiter (see ChannelHub), then goes.
    expect(await eventually(async () => (await ctx.backend().pubsubChannels()).length === 0)).toBe(true);
  });

  it('SIGSTOP past the lease: another process takes each lock; on resume the old holder learns it lost it', async () => {
    const { holder, waiters } = await start();
    await holder.worker.pause();
    const faults = new FaultLog();
    faults.record('holder process SIGSTOP past lease');
    const held = await expectTakenAfterLease(waiters, await earliestEnds(waiters));
    // With fencing, the new holder writes first; the old one's write must then be refused.
    const fencedStore = await ResourceStore.connect(store());
    try {
      for (const [index, { subject }] of waiters.entries()) {
        const token = subject.kind.token?.(held[index]!);
        if (token !== undefined)
          expect(await fencedStore.write(resourceKeys(holder.names[index]!), 1, 'new-holder', token)).toBe(true);
      }
    } finally {
      fencedStore.close();
    }

    holder.worker.resume();
    holder.worker.send('check');
    const checked = await holder.worker.next((event) => event.event === 'checked');
    await holder.worker.finished();
    const fenced = waiters.map(({ subject }) => (subject.kind.token === undefined ? null : 'rejected'));
    expect(checked.holds.map(({ abortedWith }) => abortedWith)).toEqual(waiters.map(() => LockLostError.name));
    expect(checked.holds.map(({ release }) => release)).toEqual(waiters.map(() => LockLostError.name));
    expect(checked.holds.map(({ fencedWrite }) => fencedWrite)).toEqual(fenced);
    // The old holder's renewal, on resume, did not take any lock back.
    for (const [index, { lock }] of waiters.entries()) expect(await lock.isHeldBy(held[index]!.owner)).toBe(true);
    await Promise.all(held.map((hold) => hold.release()));
    recordFigures(import.meta.url, ctx.backend().name, {
      faults: faults.counts,
      operations: held.length,
      staleWritesRejected: fenced.filter((write) => write !== null).length,
    });
  });
});
