import type { HeldLock, LockClient } from '@deadbolt/core';
import { call, holdMarkersKey, lockRuntime } from '@deadbolt/core/kit';
import fc from 'fast-check';
import { expect, it } from 'vitest';
import type { ConformantLock } from '../kinds/index.js';
import { publishes, scriptCalls } from '../publishes.js';
import type { SuiteContext } from '../SuiteContext.js';
import { eventually, sleep, waitersAsleep } from '../timing.js';
import { handoffPlans, runPlan } from './handoffPlans.js';

/**
 * Local hand-offs (the client option `localHandoff`), for kinds that declare one in the role under
 * test: a release passes the lock to a waiting task of the same client in one script, no publish,
 * the hash naming the real holder; bounded so other clients get their turn; nothing leaked when
 * the receiver gives up. Registers nothing for a role without hand-off.
 */
export function localHandoffSuite(ctx: SuiteContext): void {
  const handoff = ctx.subject.kind.localHandoff[ctx.subject.role.name];
  if (handoff === undefined) return;

  it('a release passes the lock to a sleeping task of the same client: no publish, the hash names the receiver', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass');
    const first = await lock.acquire();
    const waiting = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    const published = await publishes(ctx, lock.name);
    await first.release();
    const second = await waiting;
    expect(await publishes(ctx, lock.name)).toBe(published);
    expect(await ctx.backend().command(['HKEYS', lock.name], lock.name)).toEqual(
      handoff.holderFields(`${client.id}:${second.owner}`),
    );
    expect(await lock.holdCount(second.owner)).toBe(1);
    expect(await lock.isHeldBy(first.owner)).toBe(false);
    // The receiver's own lease (the watchdog's), set afresh.
    expect(await lock.remainingTtl()).toBeGreaterThan(client.options.watchdogTimeout - 5_000);
    await second.release();
    expect(await lock.isLocked()).toBe(false);
    expect(leftBehind(client)).toBe(0);
  });

  it('a receiver with a fixed lease gets exactly its lease, and its signal aborts at its end', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-lease');
    const first = await lock.acquire();
    const waiting = lock.acquire({ waitTime: 10_000, leaseTime: 1_500 });
    await waitersAsleep(client);
    await first.release();
    const second = await waiting;
    const ttl = await lock.remainingTtl();
    expect(ttl).toBeLessThanOrEqual(1_500);
    expect(ttl).toBeGreaterThan(1_000);
    await eventually(() => second.signal.aborted, 3_000);
    expect(await eventually(async () => !(await lock.isLocked()), 1_000)).toBe(true);
  });

  it('a re-entered hold passes nothing: the owner keeps the lock until its last release', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-reentered');
    const outer = await lock.acquire();
    const inner = await lock.acquire({ owner: outer.owner });
    const waiting = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    await inner.release();
    expect(await lock.holdCount(outer.owner)).toBe(1);
    await sleep(100);
    await outer.release();
    const next = await waiting;
    expect(await lock.holdCount(next.owner)).toBe(1);
    await next.release();
  });

  // Issue 33: an attempt made while another owner of the same client holds the lock can only fail.
  it('a task that asks for a lock another owner of its client holds sends no attempt: it is next in line for the pass', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-queued');
    const holder = await lock.acquire();
    // A first waiter has the lock's channel subscribed: joining it costs the next one nothing.
    const firstInLine = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    const before = await scriptCalls(ctx, lock.name);
    const secondInLine = lock.acquire({ waitTime: 10_000 });
    await sleep(300);
    expect((await scriptCalls(ctx, lock.name)) - before).toBe(0);
    // The holder's own owner still re-enters at once. (Its release tries a pass to the first in
    // line, which fails and sends that waiter to the back: the order below is not fixed.)
    const reentered = await lock.acquire({ owner: holder.owner, waitTime: 0 });
    await reentered.release();
    const turns = [firstInLine, secondInLine].map(async (waiting) => {
      const held = await waiting;
      expect(await lock.holdCount(held.owner)).toBe(1);
      await held.release();
    });
    await holder.release();
    await Promise.all(turns);
    expect(await lock.isLocked()).toBe(false);
    expect(leftBehind(client)).toBe(0);
  });

  it('a task that passes the lock to a local waiter and asks again at once sends no attempt: it waits behind the receiver', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-again');
    const holder = await lock.acquire({ owner: 'task-a' });
    const receiving = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    const before = await scriptCalls(ctx, lock.name);
    await holder.release();
    const again = lock.acquire({ owner: 'task-a', waitTime: 10_000 });
    const received = await receiving;
    await sleep(300);
    // The hand-off alone.
    expect((await scriptCalls(ctx, lock.name)) - before).toBe(1);
    await received.release();
    const next = await again;
    expect(await lock.holdCount('task-a')).toBe(1);
    await next.release();
    expect(await lock.isLocked()).toBe(false);
    expect(leftBehind(client)).toBe(0);
  });

  it('a task queued behind a local holder whose lock was deleted under it takes the lock once the holder learns of the loss', async () => {
    const client = await ctx.client({ watchdogTimeout: 1_500 });
    const lock = ctx.lock(client, 'pass-queued-lost');
    const holder = await lock.acquire();
    const waiting = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    // Deleted with no message: only the holder's next renewal finds out.
    await ctx.backend().command(['DEL', lock.name], lock.name);
    await eventually(() => holder.signal.aborted, 3_000);
    const next = await waiting;
    expect(await lock.holdCount(next.owner)).toBe(1);
    await next.release();
    await expect(holder.release()).rejects.toThrow();
  });

  it('after maxPasses local passes a release goes to everyone, and the client steps back: a waiter of another client takes the next turn in most trials', async () => {
    // Two local passes, then the release goes to everyone. The remote waiter and the one local
    // waiter left are both woken by it; the local one holds off from the release's sending until
    // a round trip after its reply, so the remote one, which needs about one round trip to hear
    // of the release and try, goes first. That only tilts a race between two attempts, which a
    // loaded machine sometimes turns (it failed once in CI): measured here with three busy loops
    // on the two cores, 25 trials per deployment, the remote waiter went first in 143 of 150 with
    // the step-back, and without it in none of 100 on ioredis and node-redis (33 of 50 on GLIDE).
    const trials = 5;
    const orders: string[][] = [];
    for (let trial = 0; trial < trials; trial++) orders.push(await turnsAfterARun(ctx));
    for (const order of orders) expect(order.slice(0, 2)).toEqual(['local 1', 'local 2']);
    const remoteNext = orders.filter((order) => order[2] === 'remote').length;
    expect(remoteNext, JSON.stringify(orders)).toBeGreaterThan(trials / 2);
  });

  it('a receiver that gives up as the lock is passed to it leaves the lock free', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-abort');
    const first = await lock.acquire();
    const controller = new AbortController();
    const waiting = lock.acquire({ waitTime: 10_000, signal: controller.signal });
    await waitersAsleep(client);
    // The release claims the sleeping waiter before its first await; the abort comes right after.
    const released = first.release();
    controller.abort(new Error('gave up'));
    await released;
    await expect(waiting).rejects.toThrow('gave up');
    expect(await eventually(async () => !(await lock.isLocked()), 2_000)).toBe(true);
    expect(client.activity()).toEqual({ renewing: 0, channels: [], handoffLocks: 0 });
    expect(leftBehind(client)).toBe(0);
  });

  it('a hand-off request that arrives twice passes the lock once, while its record remembers and after', async () => {
    // A short command timeout: the releasing hold's record remembers an outcome for twice that
    // (1 s: the re-sent request must come within it, and two reads of the lock come between).
    const client = await ctx.client({ commandTimeout: 500 });
    const lock = ctx.lock(client, 'pass-twice');
    const held = await lock.acquire();
    const [hold] = (await ctx.backend().command(['HKEYS', holdMarkersKey(lock.name)], lock.name)) as string[];
    const receiver = 'receiver';
    const to = { field: `${client.id}:${receiver}`, hold: `${client.id}-test:1` };
    const request = call(handoff.handOff(lock.name), {
      name: lock.name,
      from: { field: `${client.id}:${held.owner}`, hold: hold! },
      to,
      lease: 5_000,
    });
    const runtime = lockRuntime(client);
    // The receiver alone holds the lock, once.
    const passedOnce = async () => ({
      fields: await ctx.backend().command(['HKEYS', lock.name], lock.name),
      holds: await lock.holdCount(receiver),
    });
    const once = { fields: handoff.holderFields(to.field), holds: 1 };
    const first = await runtime.run(request);
    expect(first.status).toBe('passed');
    expect(await passedOnce()).toEqual(once);
    // Re-sent while the record remembers: the first outcome, and nothing counted again.
    expect(await runtime.run(request)).toEqual(first);
    expect(await passedOnce()).toEqual(once);
    // Re-sent after the record: the releasing hold is gone, so nothing changes.
    await sleep(1_200);
    expect(await runtime.run(request)).toEqual({ status: 'notHeld' });
    expect(await passedOnce()).toEqual(once);
    expect(await lock.forceUnlock()).toBe(true);
  });

  it('random plans of tasks on two clients (owners generated and named, leases, re-entries, waits given up) never overlap, count every hold and leave nothing behind; FC_SEED replays a run', async () => {
    const clients = [
      await ctx.client({ localHandoff: { maxPasses: 2, maxMillis: 10 } }),
      await ctx.client({ localHandoff: { maxPasses: 4, maxMillis: 20 } }),
    ];
    const seed = process.env['FC_SEED'];
    let acquired = 0;
    await fc.assert(
      fc.asyncProperty(handoffPlans(clients.length), async (plan) => {
        const name = ctx.uniqueName('pass-plan');
        const locks = clients.map((client) => ctx.lockNamed(client, name));
        const outcome = await runPlan(plan, locks, clients);
        acquired += outcome.acquired;
        expect({ overlaps: outcome.overlaps, wrongCounts: outcome.wrongCounts }).toEqual({
          overlaps: 0,
          wrongCounts: 0,
        });
        expect(await eventually(async () => !(await locks[0]!.isLocked()), 2_000)).toBe(true);
        const idle = { renewing: 0, channels: [], handoffLocks: 0 };
        for (const client of clients)
          expect(await eventually(() => JSON.stringify(client.activity()) === JSON.stringify(idle), 2_000)).toBe(true);
      }),
      { numRuns: Number(process.env['MODEL_RUNS'] ?? 6), endOnFailure: true, ...(seed ? { seed: Number(seed) } : {}) },
    );
    expect(acquired).toBeGreaterThan(0);
  }, 120_000);

  it('tasks of two clients hammering one lock never overlap, and every one gets it', async () => {
    const clients = [await ctx.client(), await ctx.client({ localHandoff: { maxPasses: 3, maxMillis: 20 } })];
    const name = ctx.uniqueName('pass-hammer');
    const locks = clients.map((client) => ctx.lockNamed(client, name));
    let inside = 0;
    let overlaps = 0;
    let acquisitions = 0;
    const task = async (lock: ConformantLock) => {
      for (let i = 0; i < 15; i++) {
        const held = await lock.acquire({ waitTime: 20_000 });
        if (++inside > 1) overlaps++;
        await sleep(i % 3);
        inside--;
        acquisitions++;
        await held.release();
      }
    };
    await Promise.all(locks.flatMap((lock) => Array.from({ length: 5 }, () => task(lock))));
    expect({ overlaps, acquisitions }).toEqual({ overlaps: 0, acquisitions: 150 });
    expect(await locks[0]!.isLocked()).toBe(false);
    for (const client of clients) expect(leftBehind(client)).toBe(0);
  });
}

// Once the client's waiter sleeps on the lock's channel, where a release can pass the lock to it.
function leftBehind(client: LockClient) {
  return client.activity().handoffLocks;
}

/**
 * One trial of the step-back: a client that may pass the lock locally twice holds it while a
 * waiter of another client and three of its own wait; each holder holds 20 ms. Returns who held
 * the lock, in order; every hold came and went, and the client left nothing behind.
 */
async function turnsAfterARun(ctx: SuiteContext): Promise<string[]> {
  const local = await ctx.client({ localHandoff: { maxPasses: 2, maxMillis: 10_000 } });
  const remote = await ctx.client();
  const name = ctx.uniqueName('pass-bound');
  const [localLock, remoteLock] = [ctx.lockNamed(local, name), ctx.lockNamed(remote, name)];
  const order: string[] = [];
  const holdThenRelease = async (label: string, held: Promise<HeldLock>) => {
    const hold = await held;
    order.push(label);
    await sleep(20);
    await hold.release();
  };
  const first = await localLock.acquire();
  const remoteTurn = holdThenRelease('remote', remoteLock.acquire({ waitTime: 10_000 }));
  await eventually(() => remote.activity().channels.length === 1);
  const localTurns = [holdThenRelease('local 1', localLock.acquire({ waitTime: 10_000 }))];
  await waitersAsleep(local);
  localTurns.push(holdThenRelease('local 2', localLock.acquire({ waitTime: 10_000 })));
  localTurns.push(holdThenRelease('local 3', localLock.acquire({ waitTime: 10_000 })));
  await eventually(() => local.activity().handoffLocks === 1);
  await sleep(100);
  await first.release();
  await Promise.all([remoteTurn, ...localTurns]);
  expect([...order].sort()).toEqual(['local 1', 'local 2', 'local 3', 'remote']);
  expect(await localLock.isLocked()).toBe(false);
  expect(leftBehind(local)).toBe(0);
  return order;
}
