// CountDownLatch on real servers, every adapter, standalone, cluster and Sentinel (issue 18):
// waiters wake by pub/sub when the count reaches zero, waits end by time, abort and close, and
// nothing is left.
import { BACKENDS_WITH_SENTINEL, eventually, sleep, useBackendContext } from '@deadbolt/conformance';
import { ClientClosedError, InvalidArgumentError, type LockClient } from '@deadbolt/core';
import { call, lockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { countDownCommand } from '../src/commands/countDown.js';
import { CountDownLatch } from '../src/index.js';

/** Resolves once `client`'s waiters have joined the latch's channel and had time to fall asleep. */
async function asleep(...clients: LockClient[]): Promise<void> {
  expect(await eventually(() => clients.every((client) => client.activity().channels.length === 1))).toBe(true);
  await sleep(50);
}

describe.each(BACKENDS_WITH_SENTINEL)('CountDownLatch on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const exists = (name: string) => ctx.backend().command(['EXISTS', name], name);

  it('counting down to zero wakes every waiter of two clients at once, and leaves nothing behind', async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('latch');
    const latch = new CountDownLatch(a, name);
    expect(await latch.trySetCount(2)).toBe(true);
    const waits = [a, a, a, b, b].map((client) => new CountDownLatch(client, name).await({ waitTime: 20_000 }));
    await asleep(a, b);
    await latch.countDown();
    expect(await latch.getCount()).toBe(1);
    const countedDown = performance.now();
    await new CountDownLatch(b, name).countDown();
    expect(await Promise.all(waits)).toEqual([true, true, true, true, true]);
    // Woken by the zero-count message, each in turn on its client, not by the end of the wait.
    expect(performance.now() - countedDown).toBeLessThan(2_000);
    expect([a.activity().channels, b.activity().channels]).toEqual([[], []]);
    expect(await latch.getCount()).toBe(0);
    expect(await exists(name)).toBe(0);
  });

  it('await returns true at once on a latch with no count, and on one counted down already', async () => {
    const client = await ctx.client();
    const latch = new CountDownLatch(client, ctx.uniqueName('open'));
    expect(await latch.getCount()).toBe(0);
    expect(await latch.await()).toBe(true);
    expect(await latch.await({ waitTime: 0 })).toBe(true);
    await latch.trySetCount(1);
    expect(await latch.await({ waitTime: 0 })).toBe(false);
    await latch.countDown();
    expect(await latch.await({ waitTime: 1_000 })).toBe(true);
    expect(client.activity().channels).toEqual([]);
  });

  it('await resolves false when its wait time runs out; an abort rejects with the reason; both leave the channel', async () => {
    const client = await ctx.client();
    const latch = new CountDownLatch(client, ctx.uniqueName('closed'));
    await latch.trySetCount(1);
    const started = performance.now();
    expect(await latch.await({ waitTime: 200 })).toBe(false);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    const controller = new AbortController();
    const aborted = latch.await({ signal: controller.signal });
    await asleep(client);
    controller.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    expect(client.activity().channels).toEqual([]);
    await expect(latch.await({ signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow('already');
    expect(await latch.getCount()).toBe(1);
  });

  it('closing the client ends its waits with ClientClosedError', async () => {
    const client = await ctx.client();
    const latch = new CountDownLatch(client, ctx.uniqueName('close'));
    await latch.trySetCount(1);
    const waits = [latch.await(), latch.await({ waitTime: 20_000 })];
    await asleep(client);
    // Expected before the close rejects them, or the rejections are unhandled while close runs.
    const closedOut = waits.map((wait) => expect(wait).rejects.toBeInstanceOf(ClientClosedError));
    await client.close();
    await Promise.all(closedOut);
    expect(client.activity().channels).toEqual([]);
    await expect(latch.countDown()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('trySetCount sets a count only when none is set, and again once the latch has opened', async () => {
    const client = await ctx.client();
    const latch = new CountDownLatch(client, ctx.uniqueName('set'));
    expect(await latch.trySetCount(3)).toBe(true);
    expect(await latch.trySetCount(5)).toBe(false);
    expect(await latch.getCount()).toBe(3);
    for (let i = 0; i < 3; i++) await latch.countDown();
    expect(await latch.trySetCount(2)).toBe(true);
    expect(await latch.getCount()).toBe(2);
    expect(await latch.delete()).toBe(true);
    expect(await latch.delete()).toBe(false);
  });

  it('a countdown on a latch with no count, or one set to 0, deletes the key (as Redisson)', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('below-zero');
    const latch = new CountDownLatch(client, name);
    await latch.countDown();
    expect(await exists(name)).toBe(0);
    expect(await latch.trySetCount(0)).toBe(true);
    expect(await ctx.backend().command(['GET', name], name)).toBe('0');
    await latch.countDown();
    expect(await exists(name)).toBe(0);
    expect(await latch.getCount()).toBe(0);
  });

  it('delete wakes a waiter, which reads the count 0', async () => {
    const client = await ctx.client();
    const latch = new CountDownLatch(client, ctx.uniqueName('delete'));
    await latch.trySetCount(4);
    const deleted = performance.now();
    const wait = latch.await({ waitTime: 20_000 });
    await asleep(client);
    await latch.delete();
    expect(await wait).toBe(true);
    expect(performance.now() - deleted).toBeLessThan(2_000);
  });

  it('a countdown the driver sends twice counts once', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('resent');
    await new CountDownLatch(client, name).trySetCount(2);
    const runtime = lockRuntime(client);
    const resent = call(countDownCommand, { name, request: runtime.newHoldId() });
    await runtime.run(resent);
    await runtime.run(resent);
    expect(await new CountDownLatch(client, name).getCount()).toBe(1);
  });

  it('refuses bad input, naming the argument, before anything reaches Redis', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('input');
    const latch = new CountDownLatch(client, name);
    for (const count of [-1, 1.5, 2 ** 53, NaN, '3']) {
      await expect(latch.trySetCount(count as number)).rejects.toMatchObject({
        name: 'InvalidArgumentError',
        argument: 'count',
      });
    }
    const options: [unknown, string][] = [
      [{ waitTime: -1 }, 'options.waitTime'],
      [{ waitTime: 1.5 }, 'options.waitTime'],
      [{ signal: 'stop' }, 'options.signal'],
      [{ waittime: 10 }, 'options.waittime'],
      ['soon', 'options'],
    ];
    for (const [bad, argument] of options) {
      await expect(latch.await(bad as { waitTime: number })).rejects.toMatchObject({ argument });
    }
    expect(() => new CountDownLatch(client, '{tag}:latch')).toThrow(InvalidArgumentError);
    expect(() => new CountDownLatch({} as LockClient, name)).toThrow(/Invalid argument client/);
    expect(await exists(name)).toBe(0);
    expect(client.activity().channels).toEqual([]);
  });
});
