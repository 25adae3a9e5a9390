// Semaphore on real servers, every adapter, standalone, cluster and Sentinel (issue 18): permits
// are taken all at once, waiters wake by pub/sub, waits end by time, abort and close, and nothing
// is left.
import { BACKENDS_WITH_SENTINEL, eventually, sleep, useBackendContext } from '@deadbolt/conformance';
import {
  ClientClosedError,
  InvalidArgumentError,
  LockNotHeldError,
  LockWaitTimeoutError,
  type LockClient,
} from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { PermitWaitTimeoutError, Semaphore, type PermitAcquireOptions } from '../src/index.js';

/** Resolves once each client's waiters have joined the semaphore's channel and had time to fall asleep. */
async function asleep(...clients: LockClient[]): Promise<void> {
  expect(await eventually(() => clients.every((client) => client.activity().channels.length === 1))).toBe(true);
  await sleep(50);
}

const noChannels = (...clients: LockClient[]) =>
  expect(clients.map((client) => client.activity().channels)).toEqual(clients.map(() => []));

describe.each(BACKENDS_WITH_SENTINEL)('Semaphore on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  it('a waiter for 3 permits holds none of them while it waits, and takes all 3 once they are back', async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const semaphore = new Semaphore(a, ctx.uniqueName('multi'));
    expect(await semaphore.trySetPermits(3)).toBe(true);
    const holds = [await semaphore.acquire(), await semaphore.acquire(2)];
    const waiter = new Semaphore(b, semaphore.name).acquire(3, { waitTime: 20_000 });
    await asleep(b);
    await holds[0]?.release();
    await sleep(100);
    // Woken by that release, it found 1 of 3 and took nothing: the permit is there for others.
    expect(await semaphore.availablePermits()).toBe(1);
    const released = performance.now();
    await holds[1]?.release();
    const held = await waiter;
    expect(performance.now() - released).toBeLessThan(2_000);
    expect(held.permits).toBe(3);
    expect(await semaphore.availablePermits()).toBe(0);
    noChannels(a, b);
    await held.release();
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await semaphore.availablePermits()).toBe(3);
  });

  // Issue 33: every message on a Semaphore's channel is the permits available, so it wakes only
  // the waiters those can serve; and a waiter that joins a channel its client has subscribed
  // already has missed nothing, so it sleeps after its one attempt.
  it('a release of one permit wakes one waiter of a client, and waiters joining a subscribed channel try once', async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('servable');
    const semaphore = new Semaphore(a, name);
    await semaphore.trySetPermits(1);
    const held = await semaphore.acquire();
    const waiting = new Semaphore(b, name);
    const waits = [waiting.acquire(1, { waitTime: 20_000 })];
    await asleep(b);
    const scriptCalls = async () => {
      const stats = String(await ctx.backend().command(['INFO', 'commandstats'], name));
      return [...stats.matchAll(/cmdstat_eval(?:sha)?:calls=(\d+)/g)].reduce(
        (sum, [, calls]) => sum + Number(calls),
        0,
      );
    };
    const before = await scriptCalls();
    waits.push(waiting.acquire(1, { waitTime: 20_000 }), waiting.acquire(1, { waitTime: 20_000 }));
    await sleep(300);
    expect((await scriptCalls()) - before).toBe(2);
    await held.release();
    await sleep(300);
    // The release, then the one attempt of the waiter it woke, which took the permit.
    expect((await scriptCalls()) - before).toBe(4);
    let pending = waits;
    while (pending.length > 0) {
      const [hold, index] = await Promise.race(
        pending.map((wait, index) => wait.then((hold) => [hold, index] as const)),
      );
      await hold.release();
      pending = pending.filter((_, other) => other !== index);
    }
    expect(await semaphore.availablePermits()).toBe(1);
  });

  it("acquire waits the client's defaultWaitTime when it gives no waitTime", async () => {
    const semaphore = new Semaphore(await ctx.client({ defaultWaitTime: 200 }), ctx.uniqueName('default-wait'));
    await semaphore.trySetPermits(1);
    const timedOut = await semaphore.acquire(2).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(PermitWaitTimeoutError);
    expect(timedOut).toMatchObject({ permits: 2, waitTime: 200 });
    expect(await semaphore.availablePermits()).toBe(1);
  });

  it('a wait that runs out, an abort and tryAcquire leave nothing behind and take nothing', async () => {
    const client = await ctx.client();
    const semaphore = new Semaphore(client, ctx.uniqueName('timeout'));
    await semaphore.trySetPermits(1);
    const started = performance.now();
    const timedOut = await semaphore.acquire(2, { waitTime: 200 }).catch((error: unknown) => error);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(timedOut).toBeInstanceOf(PermitWaitTimeoutError);
    expect(timedOut).toBeInstanceOf(LockWaitTimeoutError);
    expect(timedOut).toMatchObject({ permits: 2, waitTime: 200, lockName: semaphore.name });
    expect(await semaphore.tryAcquire(2)).toBeNull();
    expect(await semaphore.tryAcquire(2, { waitTime: 100 })).toBeNull();
    const controller = new AbortController();
    const aborted = semaphore.acquire(2, { signal: controller.signal });
    await asleep(client);
    controller.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    await expect(semaphore.tryAcquire(1, { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
      'already',
    );
    noChannels(client);
    expect(await semaphore.availablePermits()).toBe(1);
  });

  it('closing the client ends its waits with ClientClosedError', async () => {
    const client = await ctx.client();
    const semaphore = new Semaphore(client, ctx.uniqueName('close'));
    const waits = [semaphore.acquire(), semaphore.tryAcquire(1, { waitTime: 20_000 })];
    await asleep(client);
    // Expected before the close rejects them, or the rejections are unhandled while close runs.
    const closedOut = waits.map((wait) => expect(wait).rejects.toBeInstanceOf(ClientClosedError));
    await client.close();
    await Promise.all(closedOut);
    noChannels(client);
    await expect(semaphore.release()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('trySetPermits sets permits once; addPermits adds and takes away; drainPermits empties', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('permits');
    const semaphore = new Semaphore(client, name);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await semaphore.drainPermits()).toBe(0);
    expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    expect(await semaphore.trySetPermits(4)).toBe(true);
    expect(await semaphore.trySetPermits(9)).toBe(false);
    expect(await semaphore.availablePermits()).toBe(4);
    await semaphore.addPermits(2);
    await semaphore.addPermits(-10);
    expect(await semaphore.availablePermits()).toBe(-4);
    expect(await semaphore.tryAcquire()).toBeNull();
    await semaphore.release(5);
    expect(await ctx.backend().command(['GET', name], name)).toBe('1');
    expect(await semaphore.drainPermits()).toBe(1);
    expect(await semaphore.availablePermits()).toBe(0);
    await semaphore.addPermits(3);
    expect(await semaphore.trySetPermits(1)).toBe(false);
  });

  it('acquire(0) and release(0) do nothing; `await using` gives permits back once', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('using');
    const semaphore = new Semaphore(client, name);
    const none = await semaphore.acquire(0);
    expect(none.permits).toBe(0);
    await none.release();
    expect(none.released).toBe(true);
    await semaphore.release(0);
    expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    await semaphore.trySetPermits(2);
    {
      await using held = await semaphore.acquire(2);
      expect(await semaphore.availablePermits()).toBe(0);
      expect(held.released).toBe(false);
    }
    expect(await semaphore.availablePermits()).toBe(2);
  });

  it('refuses bad input, naming the argument, before anything reaches Redis', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('input');
    const semaphore = new Semaphore(client, name);
    const refusals: [() => Promise<unknown>, string][] = [
      ...[-1, 1.5, 2 ** 53, NaN, '3'].map((bad): [() => Promise<unknown>, string] => [
        () => semaphore.acquire(bad as number),
        'permits',
      ]),
      [() => semaphore.tryAcquire(-1), 'permits'],
      [() => semaphore.release(-1), 'permits'],
      [() => semaphore.trySetPermits(-1), 'permits'],
      [() => semaphore.addPermits(0.5), 'permits'],
      [() => semaphore.addPermits(-(2 ** 53)), 'permits'],
      [() => semaphore.acquire(1, { waitTime: -1 }), 'options.waitTime'],
      [() => semaphore.tryAcquire(1, { signal: 'stop' as unknown as AbortSignal }), 'options.signal'],
      [() => semaphore.acquire(1, { waittime: 10 } as unknown as PermitAcquireOptions), 'options.waittime'],
    ];
    for (const [refused, argument] of refusals)
      await expect(refused()).rejects.toMatchObject({ name: 'InvalidArgumentError', argument });
    expect(() => new Semaphore(client, '')).toThrow(InvalidArgumentError);
    expect(() => new Semaphore(client, '{:x')).toThrow(InvalidArgumentError);
    expect(() => new Semaphore({} as LockClient, name)).toThrow(/Invalid argument client/);
    expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    noChannels(client);
  });
});
