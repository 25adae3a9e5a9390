// The fair lock's queue within one process and between clients: arrival order, giving up,
// deadlines, who is woken, and what is left behind.
import { BACKENDS, eventually, sleep, useSuiteContext } from '@deadbolt/conformance';
import { FAIR_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import type { HeldLock, LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { afterEach, describe, expect, it } from 'vitest';
import { CountingFairLock } from './CountingFairLock.js';
import { queueState } from './queueState.js';

describe.each(BACKENDS)('FairLock queue on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FAIR_LOCK), adapter, topology);
  const names: string[] = [];
  const fairName = (label: string) => {
    const name = ctx.uniqueName(label);
    names.push(name);
    return name;
  };
  // Once everyone is done, no queue or deadline key may remain.
  afterEach(async () => {
    for (const name of names.splice(0)) expect(await queueState(ctx, name).keysLeft(), name).toBe(0);
  });

  it('staggered tryAcquire calls with a wait and a short lease acquire in arrival order', async () => {
    const clients = [await ctx.client(), await ctx.client()];
    const name = fairName('staggered');
    await new FairLock(clients[0]!, name).acquire({ leaseTime: 100 });
    const queue = queueState(ctx, name);
    const order: number[] = [];
    const calls = [];
    for (let i = 0; i < 8; i++) {
      const client = clients[i % 2]!;
      // Nobody releases: each lease runs out and the head of the queue takes the lock at once.
      calls.push(
        new FairLock(client, name)
          .tryAcquire({ waitTime: 10_000, leaseTime: 100, owner: `w${i}` })
          .then((held) => held && order.push(i)),
      );
      // The next call starts once this one has arrived (queued, or holding already), so the order
      // of arrival is the order of the calls, however late a loaded machine sends them.
      await eventually(
        async () => order.includes(i) || (await queue.waiters()).includes(`${client.id}:w${i}`),
        5_000,
        5,
      );
    }
    await Promise.all(calls);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    await eventually(async () => !(await new FairLock(clients[0]!, name).isLocked()), 1_000);
  });

  it('a middle waiter that times out leaves at once, the deadlines behind it move up, and the order holds', async () => {
    const waiterTimeout = 1_000;
    const [holder, a, b, c] = [await ctx.client(), await ctx.client(), await ctx.client(), await ctx.client()];
    const name = fairName('middle');
    const queue = queueState(ctx, name);
    const lockOn = (client: LockClient) => new FairLock(client, name, { waiterTimeout });
    const held = await lockOn(holder).acquire();
    const order: string[] = [];
    const first = lockOn(a).withLock(() => order.push('a'), { waitTime: 10_000, owner: 'a' });
    await eventually(async () => (await queue.length()) === 1);
    // b must still be queued when c's deadline is first read: two queue polls and c's first
    // attempt must fit in its wait (with 300 ms, a few loaded event-loop turns would not).
    const middleWait = 900;
    const middle = lockOn(b).tryAcquire({ waitTime: middleWait, owner: 'b' });
    await eventually(async () => (await queue.length()) === 2);
    const last = lockOn(c).withLock(() => order.push('c'), { waitTime: 10_000, owner: 'c' });
    await eventually(async () => (await queue.length()) === 3);
    const before = await queue.deadline(`${c.id}:c`);
    expect(await middle).toBeNull();
    expect(await queue.waiters()).toEqual([`${a.id}:a`, `${c.id}:c`]);
    expect(await queue.deadline(`${b.id}:b`)).toBeNull();
    expect(await queue.deadline(`${c.id}:c`)).toBe(before! - middleWait);
    await held.release();
    await Promise.all([first, last]);
    expect(order).toEqual(['a', 'c']);
  });

  it('an aborted waiter leaves the queue before its promise settles', async () => {
    const [holder, waiter] = [await ctx.client(), await ctx.client()];
    const name = fairName('aborted');
    const queue = queueState(ctx, name);
    const held = await new FairLock(holder, name).acquire();
    const controller = new AbortController();
    const waiting = new FairLock(waiter, name).acquire({ signal: controller.signal, owner: 'quitter' });
    await eventually(async () => (await queue.length()) === 1);
    controller.abort(new Error('no longer needed'));
    await expect(waiting).rejects.toThrow('no longer needed');
    expect(await queue.keysLeft()).toBe(0);
    await held.release();
  });

  it('a live waiter keeps its place however long it waits: it checks in before its deadline', async () => {
    // A waiter checks in every waiterTimeout / 3 and is dropped after waiterTimeout without one, so
    // it may stall 600 ms. The holder's short lease puts the first deadline close (the lock's TTL
    // plus waiterTimeout), so check-ins must move it; renewed every third of it, the lease outlasts
    // a stall of about 660 ms. (With a 300 ms lease and a 600 ms waiterTimeout, both waiters were
    // once gone from the queue under CI load: a stall of 200 ms lost the lease, or of 400 ms a
    // check-in.)
    const waiterTimeout = 900;
    const [holder, waiter] = [await ctx.client({ watchdogTimeout: 1_000 }), await ctx.client()];
    const name = fairName('long-wait');
    const queue = queueState(ctx, name);
    const lock = new FairLock(waiter, name, { waiterTimeout });
    const held = await new FairLock(holder, name, { waiterTimeout }).acquire();
    const order: string[] = [];
    const waits = ['first', 'second'].map((owner) => lock.withLock(() => order.push(owner), { owner }));
    await eventually(async () => (await queue.length()) === 2);
    const firstDeadline = (await queue.deadline(`${waiter.id}:first`))!;
    // Four times the waiter deadline: without check-ins both waiters would be dropped as dead.
    await sleep(4 * waiterTimeout);
    expect(await queue.waiters()).toEqual([`${waiter.id}:first`, `${waiter.id}:second`]);
    expect(await queue.deadline(`${waiter.id}:first`)).toBeGreaterThan(firstDeadline);
    await held.release();
    await Promise.all(waits);
    expect(order).toEqual(['first', 'second']);
  });

  it('several hundred waiters with short leases all get through, each client in its order', async () => {
    const clients = [await ctx.client(), await ctx.client(), await ctx.client()];
    const name = fairName('hundreds');
    const granted = clients.map(() => [] as number[]);
    await Promise.all(
      clients.flatMap((client, c) => {
        const lock = new FairLock(client, name);
        return Array.from({ length: 100 }, async (_, i) => {
          // Every tenth holder never releases: its short lease runs out while the others wait.
          const abandons = i % 10 === 9;
          const held = await lock.acquire({ leaseTime: abandons ? 50 : 5_000, waitTime: 60_000 });
          granted[c]!.push(i);
          if (!abandons) await held.release();
        });
      }),
    );
    for (const order of granted) expect(order).toEqual(Array.from({ length: 100 }, (_, i) => i));
    for (const client of clients) expect(client.activity().channels).toEqual([]);
    await eventually(async () => !(await new FairLock(clients[0]!, name).isLocked()), 1_000);
  }, 60_000);

  it('a no-wait tryAcquire never joins the queue, and does not pass those who queue for a free lock', async () => {
    const client = await ctx.client();
    const name = fairName('no-wait');
    const queue = queueState(ctx, name);
    const lock = new FairLock(client, name, { waiterTimeout: 500 });
    const held = await lock.acquire();
    expect(await lock.tryAcquire()).toBeNull();
    expect(await lock.tryAcquire({ waitTime: 0 })).toBeNull();
    expect(await queue.keysLeft()).toBe(0);
    await held.release();
    // A waiter that never comes, queued in Redisson's layout by another client.
    const ghost = 'e6f0e3b6-5f27-4d8a-9a43-1b8c2f0d9e70:1';
    await ctx.backend().command(['RPUSH', queue.keys.queue, ghost], queue.keys.queue);
    await ctx.backend().command(['ZADD', queue.keys.timeouts, Date.now() + 60_000, ghost], queue.keys.queue);
    expect(await lock.tryAcquire()).toBeNull();
    expect(await queue.waiters()).toEqual([ghost]);
    // A waiting acquisition queues behind it and gets the lock once the ghost's time is up.
    const started = performance.now();
    const next = await lock.acquire({ waitTime: 10_000 });
    expect(performance.now() - started).toBeLessThan(2_500);
    expect(await queue.keysLeft()).toBe(0);
    await next.release();
  });

  it('a lock whose lease runs out while others wait goes to the head waiter at once', async () => {
    const [holder, waiter] = [await ctx.client(), await ctx.client()];
    const name = fairName('expiry');
    await new FairLock(holder, name).acquire({ leaseTime: 300 });
    const started = performance.now();
    const lock = new FairLock(waiter, name, { waiterTimeout: 20_000 });
    const held = await lock.acquire({ waitTime: 20_000 });
    // Not the head's deadline (20 s): the lease's end.
    expect(performance.now() - started).toBeLessThan(2_000);
    await held.release();
  });

  it('a release wakes exactly the next waiter, and taking the lock tells only the one after it', async () => {
    const [holder, one, two] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const name = fairName('wake-one');
    const queue = queueState(ctx, name);
    const locks = [new CountingFairLock(one, name), new CountingFairLock(two, name)];
    let held: HeldLock = await new FairLock(holder, name).acquire();
    const waits: Promise<HeldLock>[] = [];
    for (let i = 0; i < 6; i++) {
      waits.push(locks[i % 2]!.acquire({ owner: `w${i}` }));
      await eventually(async () => (await queue.length()) === i + 1);
    }
    // One channel per waiter. A waiter subscribes after its first attempt queued it, so the last
    // one's subscription may still be on its way (GLIDE's takes a hop through its core more).
    expect(await eventually(async () => (await ctx.backend().pubsubChannels()).length === 6)).toBe(true);
    for (let i = 0; i < 6; i++) {
      await sleep(50);
      const before = locks.map((lock) => new Map(lock.sent));
      await held.release();
      held = await waits[i]!;
      expect(held.owner).toBe(`w${i}`);
      // w<i> was woken by the release and took the lock; w<i+1> was told it is next and tried
      // once to learn the new lease; nobody else stirred.
      const woken = [`:w${i}`, `:w${i + 1}`];
      const attemptsSince = () =>
        locks.flatMap((lock, l) =>
          [...lock.sent].map(([field, count]) => ({ field, count: count - (before[l]!.get(field) ?? 0) })),
        );
      // The message that tells w<i+1> may come late on a loaded machine: wait for its attempt,
      // then give any other waiter time to stir.
      if (i < 5)
        await eventually(() => attemptsSince().some(({ field, count }) => field.endsWith(`:w${i + 1}`) && count > 0));
      await sleep(50);
      for (const { field, count } of attemptsSince()) {
        expect(count, field).toBe(woken.some((suffix) => field.endsWith(suffix)) ? 1 : 0);
      }
    }
    await held.release();
  });

  it('a waiter deadline is its wait time, or waiterTimeout without one, after the lock expiry or the waiter ahead', async () => {
    const [holder, waiter] = [await ctx.client(), await ctx.client()];
    const name = fairName('deadlines');
    const queue = queueState(ctx, name);
    const held = await new FairLock(holder, name).acquire({ leaseTime: 10_000 });
    const lock = new FairLock(waiter, name, { waiterTimeout: 60_000 });
    const controller = new AbortController();
    const sent = Date.now();
    const waits = [
      lock.acquire({ owner: 'first', signal: controller.signal }),
      lock.tryAcquire({ owner: 'second', waitTime: 5_000, signal: controller.signal }),
    ];
    await eventually(async () => (await queue.length()) === 2);
    const first = (await queue.deadline(`${waiter.id}:first`))!;
    expect(first).toBeGreaterThanOrEqual(sent + 60_000 + 9_000);
    expect(first).toBeLessThanOrEqual(Date.now() + 60_000 + 10_000);
    expect(await queue.deadline(`${waiter.id}:second`)).toBe(first + 5_000);
    controller.abort();
    await Promise.allSettled(waits);
    expect(await queue.keysLeft()).toBe(0);
    await held.release();
  });

  it('forceUnlock wakes the head waiter and keeps the queue', async () => {
    const [holder, waiter] = [await ctx.client(), await ctx.client()];
    const name = fairName('force');
    const queue = queueState(ctx, name);
    await new FairLock(holder, name).acquire();
    const lock = new FairLock(waiter, name);
    const first = lock.acquire({ owner: 'first' });
    const second = lock.acquire({ owner: 'second' });
    await eventually(async () => (await queue.length()) === 2);
    expect(await lock.forceUnlock()).toBe(true);
    const held = await first;
    expect(await queue.waiters()).toEqual([`${waiter.id}:second`]);
    await held.release();
    await (await second).release();
    expect(await lock.forceUnlock()).toBe(false);
  });
});
