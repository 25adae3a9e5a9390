// Arrival order across processes, and what a waiter process killed in the queue costs the rest.
import { BACKENDS, eventually, sleep, useSuiteContext } from '@deadbolt/conformance';
import { FAIR_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { FairLock } from '@deadbolt/fair-lock';
import { afterEach, describe, expect, it } from 'vitest';
import { WaiterProcess } from './child/waiterProcess.js';
import { queueState } from './queueState.js';

describe.each(BACKENDS)('FairLock across processes on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FAIR_LOCK), adapter, topology);
  afterEach(() => WaiterProcess.killAll());

  it('3 processes x 20 waiters arriving in a known order acquire in that order', async () => {
    const name = ctx.uniqueName('fifo');
    const queue = queueState(ctx, name);
    const orderKey = `${name}:order`;
    const processes = await Promise.all(
      Array.from({ length: 3 }, () =>
        WaiterProcess.start({ spec: ctx.backend().spec, lockName: name, orderKey, waiterTimeout: 300_000 }),
      ),
    );
    const held = await new FairLock(await ctx.client(), name).acquire();
    const labels = Array.from({ length: 60 }, (_, i) => `w${i}`);
    for (const [i, label] of labels.entries()) {
      // The next one arrives only once the previous one stands in the queue.
      processes[i % 3]!.wait(label);
      expect(await eventually(async () => (await queue.length()) === i + 1, 5_000, 5)).toBe(true);
    }
    await held.release();
    await Promise.all(processes.map((waiter) => waiter.finish()));
    expect(await ctx.backend().command(['LRANGE', orderKey, 0, -1], orderKey)).toEqual(labels);
    expect(await queue.keysLeft()).toBe(0);
  }, 60_000);

  it('a waiter process killed in the queue holds it up until its deadline only', async () => {
    const waiterTimeout = 1_000;
    const name = ctx.uniqueName('killed');
    const queue = queueState(ctx, name);
    const doomed = await WaiterProcess.start({
      spec: ctx.backend().spec,
      lockName: name,
      orderKey: `${name}:order`,
      waiterTimeout,
    });
    const client = await ctx.client();
    const lock = new FairLock(client, name, { waiterTimeout });
    const held = await lock.acquire();
    doomed.wait('doomed');
    await eventually(async () => (await queue.length()) === 1, 5_000, 5);
    const next = lock.acquire({ waitTime: 20_000 });
    await eventually(async () => (await queue.length()) === 2, 5_000, 5);
    await doomed.kill();
    const released = performance.now();
    await held.release(); // wakes the dead head, which never comes
    const taken = await next;
    // The dead head gets waiterTimeout from the release; its successor checks in a third of that.
    expect(performance.now() - released).toBeLessThan(waiterTimeout + 2_000);
    expect(await queue.waiters()).toEqual([]);
    await taken.release();
    expect(await queue.keysLeft()).toBe(0);
  });

  it('a waiter process killed with nobody behind it stays queued until someone comes after its deadline, as in Redisson', async () => {
    const waiterTimeout = 1_000;
    const name = ctx.uniqueName('killed-alone');
    const queue = queueState(ctx, name);
    const doomed = await WaiterProcess.start({
      spec: ctx.backend().spec,
      lockName: name,
      orderKey: `${name}:order`,
      waiterTimeout,
    });
    // The holder's lease runs out instead of being released: no script runs after the kill.
    await new FairLock(await ctx.client(), name).acquire({ leaseTime: 300 });
    doomed.wait('doomed');
    await eventually(async () => (await queue.length()) === 1, 5_000, 5);
    await doomed.kill();
    // Deadline: lease + waiterTimeout from its arrival. The keys have no TTL (Redisson sets none,
    // and a Java waiter's deadline may lie far beyond any Deadbolt wrote): the entry stays.
    await sleep(300 + waiterTimeout + 1_000);
    expect(await queue.keysLeft()).toBe(2);
    expect(await ctx.backend().command(['PTTL', queue.keys.queue], queue.keys.queue)).toBe(-1);
    // The next comer drops it as dead and takes the free lock at once, even without waiting.
    const held = await new FairLock(await ctx.client(), name).tryAcquire();
    expect(held).not.toBeNull();
    expect(await queue.keysLeft()).toBe(0);
    await held!.release();
  });
});
