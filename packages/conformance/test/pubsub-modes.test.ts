import type { PubSubMode } from '@deadbolt/core';
import { lockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';
import { useSuiteContext } from '../src/SuiteContext.js';
import { eventually } from '../src/timing.js';

describe.each(BACKENDS)('pub/sub modes on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(LOCK), adapter, topology);

  it('auto picks sharded pub/sub on a Redis 7 cluster and classic on a standalone server', async () => {
    const client = await ctx.client();
    expect(await lockRuntime(client).publishCommand()).toBe(topology === 'cluster' ? 'spublish' : 'publish');
  });

  it.each<PubSubMode>(['classic', 'sharded'])('%s pub/sub wakes a waiter in another client', async (pubsub) => {
    const [holder, waiter] = [await ctx.client({ pubsub }), await ctx.client({ pubsub })];
    const name = ctx.uniqueName(pubsub);
    const held = await holder.lock(name).acquire();
    const waiting = waiter.lock(name).acquire({ waitTime: 20_000 });
    await eventually(() => waiter.activity().channels.length === 1);
    expect(await ctx.backend().pubsubChannels()).toEqual([`redisson_lock__channel:{${name}}`]);
    const released = performance.now();
    await held.release();
    await (await waiting).release();
    expect(performance.now() - released).toBeLessThan(2_000);
  });
});
