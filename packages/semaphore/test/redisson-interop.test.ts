// A Java service using Redisson's RSemaphore and Node services using Deadbolt share a semaphore
// (issue 18): Redisson's release is INCRBY and a publish of the new value on redisson_sc:{name},
// sent here as raw commands, and Redisson's waiters listen on that channel, as a raw subscriber does.
import { BACKENDS, eventually, useBackendContext, type BackendContext } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';
import { lockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/index.js';

/** Whether `client`'s channels use sharded pub/sub: then Redisson's scripts publish with SPUBLISH too. */
async function sharded(client: LockClient): Promise<boolean> {
  return (await lockRuntime(client).publishCommand()) === 'spublish';
}

/** The messages on `channel`, as a subscriber connection of the adapter under test receives them. */
async function listen(ctx: BackendContext, channel: string, isSharded: boolean): Promise<string[]> {
  const messages: string[] = [];
  const executor = await ctx.backend().createExecutor();
  executor.listen({ onMessage: (from, message) => from === channel && messages.push(message), onSubscriberReconnect: () => undefined });
  await executor.subscribe(channel, isSharded);
  return messages;
}

describe.each(BACKENDS)('Semaphore and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  it("a Redisson-style release (INCRBY, then a publish of the value) wakes Deadbolt's waiter", async () => {
    const client = await ctx.client();
    const semaphore = new Semaphore(client, ctx.uniqueName('redisson-release'));
    const { name, channel } = semaphore;
    await semaphore.trySetPermits(0);
    const waiter = semaphore.acquire(2, { waitTime: 20_000 });
    expect(await eventually(() => client.activity().channels.includes(channel))).toBe(true);
    const publish = (await sharded(client)) ? 'SPUBLISH' : 'PUBLISH';
    const redissonRelease = async () => {
      const value = await ctx.backend().command(['INCRBY', name, 1], name);
      await ctx.backend().command([publish, channel, String(value)], name);
    };
    await redissonRelease();
    await redissonRelease();
    const released = performance.now();
    const held = await waiter;
    expect(performance.now() - released).toBeLessThan(2_000);
    expect(held.permits).toBe(2);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(client.activity().channels).toEqual([]);
  });

  it("Deadbolt's changes publish exactly the permits now available on redisson_sc:{name}", async () => {
    const client = await ctx.client();
    const semaphore = new Semaphore(client, ctx.uniqueName('deadbolt-release'));
    expect(semaphore.channel).toBe(`redisson_sc:{${semaphore.name}}`);
    const messages = await listen(ctx, semaphore.channel, await sharded(client));
    await semaphore.trySetPermits(2);
    const held = await semaphore.acquire(2);
    await semaphore.addPermits(1);
    await held.release();
    await semaphore.release(3);
    await semaphore.addPermits(-4);
    expect(await eventually(() => messages.length === 5)).toBe(true);
    // trySetPermits publishes what it set; a release and addPermits, the value after INCRBY.
    expect(messages).toEqual(['2', '1', '3', '6', '2']);
    // Where Redisson reads the permits: a decimal string at the name.
    expect(await ctx.backend().command(['GET', semaphore.name], semaphore.name)).toBe('2');
  });
});
