import type { PubSubMode } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { BACKENDS, shardedOnStandalone } from '../src/backends/index.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';
import { publishCommandOf } from '../src/publishCommandOf.js';
import { useSuiteContext } from '../src/SuiteContext.js';
import { eventually } from '../src/timing.js';

describe.each(BACKENDS)('pub/sub modes on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(LOCK), adapter, topology);

  it('auto picks sharded pub/sub on a Redis 7 cluster and classic on a standalone server', async () => {
    const client = await ctx.client();
    expect(await publishCommandOf(client)).toBe(topology === 'cluster' ? 'spublish' : 'publish');
  });

  const modes: PubSubMode[] =
    topology === 'cluster' || shardedOnStandalone(adapter) ? ['classic', 'sharded'] : ['classic'];

  it.each(modes)('%s pub/sub wakes a waiter in another client', async (pubsub) => {
    const [holder, waiter] = [await ctx.client({ pubsub }), await ctx.client({ pubsub })];
    const name = ctx.uniqueName(pubsub);
    const held = await holder.lock(name).acquire();
    const waiting = waiter.lock(name).acquire({ waitTime: 20_000 });
    // The waiter counts its channel from the moment it asks to subscribe; wait for Redis to have it.
    await eventually(async () => (await ctx.backend().pubsubChannels()).length > 0);
    expect(await ctx.backend().pubsubChannels()).toEqual([`redisson_lock__channel:{${name}}`]);
    const released = performance.now();
    await held.release();
    await (await waiting).release();
    expect(performance.now() - released).toBeLessThan(2_000);
  });

  if (!modes.includes('sharded')) {
    it('sharded pub/sub, which the driver cannot do on a standalone server, fails a wait with the reason', async () => {
      const [holder, waiter] = [await ctx.client(), await ctx.client({ pubsub: 'sharded' })];
      const name = ctx.uniqueName('unsupported');
      const held = await holder.lock(name).acquire();
      const error: unknown = await waiter
        .lock(name)
        .acquire({ waitTime: 5_000 })
        .catch((e: unknown) => e);
      expect(error).toMatchObject({
        name: 'RedisUnavailableError',
        cause: { message: expect.stringMatching(/no sharded pub\/sub/) },
      });
      // This test's channel only: an earlier test's may still linger (see ChannelHub).
      expect(await ctx.backend().pubsubChannels(`*${name}*`)).toEqual([]);
      await held.release();
    });
  }
});
