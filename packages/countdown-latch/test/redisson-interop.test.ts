// A Java service using Redisson's RCountDownLatch and Node services using Deadbolt share a latch
// (issue 18). The Java side is the Redisson peer of @deadbolt/conformance running scripts with the
// effect of RedissonCountDownLatch's, and a raw subscriber on Redisson's channel, as its waiters are.
import { BACKENDS, eventually, sleep, useBackendContext, useRedissonPeers, type Backend } from '@deadbolt/conformance';
import { lockRuntime } from '@deadbolt/core/kit';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { CountDownLatch, latchChannelName } from '../src/index.js';

// What Redisson's trySetCount and countDown do, as its scripts on the wire: the count as a string
// at the name, message 1 for a new count, 0 when a countdown reaches zero, the key gone at or below
// zero. Neither remembers requests: Redisson does not re-send a countdown.
const REDISSON_TRY_SET_COUNT = `
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('set', KEYS[1], ARGV[2])
redis.call(ARGV[3], KEYS[2], ARGV[1])
return 1`;
const REDISSON_COUNT_DOWN = `
local left = redis.call('decr', KEYS[1])
if left > 0 then return nil end
redis.call('del', KEYS[1])
if left == 0 then redis.call(ARGV[2], KEYS[2], ARGV[1]) end
return nil`;

/** A subscriber connection of its own on the server that serves `channel`, keeping the raw bytes of each message. */
async function rawSubscriber(backend: Backend, channel: string, sharded: boolean): Promise<{ messages: Buffer[]; redis: Redis }> {
  const node = backend.cluster ? await backend.cluster.masterForKey(channel) : backend.spec.nodes[0];
  if (node === undefined) throw new Error('the backend has no node');
  const redis = new Redis({ host: node.host, port: node.port });
  const messages: Buffer[] = [];
  redis.on(sharded ? 'smessageBuffer' : 'messageBuffer', (from: Buffer, message: Buffer) => {
    if (from.toString() === channel) messages.push(message);
  });
  if (sharded) await redis.ssubscribe(channel);
  else await redis.subscribe(channel);
  return { messages, redis };
}

describe.each(BACKENDS)('CountDownLatch and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const peers = useRedissonPeers(ctx);
  const subscribers: Redis[] = [];
  afterEach(() => {
    for (const redis of subscribers.splice(0)) redis.disconnect();
  });

  it("a latch a Redisson service sets and counts down wakes Deadbolt's waiters", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const name = ctx.uniqueName('redisson-sets');
    const keys = [name, latchChannelName(name)];
    expect(await java.eval(REDISSON_TRY_SET_COUNT, keys, [1, 2, java.publishCommand])).toBe(1);
    const latch = new CountDownLatch(client, name);
    expect(await latch.getCount()).toBe(2);
    expect(await latch.trySetCount(9)).toBe(false);
    const waits = [latch.await({ waitTime: 20_000 }), latch.await({ waitTime: 20_000 })];
    expect(await eventually(() => client.activity().channels.includes(latch.channel))).toBe(true);
    await sleep(50);
    await java.eval(REDISSON_COUNT_DOWN, keys, [0, java.publishCommand]);
    expect(await latch.getCount()).toBe(1);
    const countedDown = performance.now();
    await java.eval(REDISSON_COUNT_DOWN, keys, [0, java.publishCommand]);
    expect(await Promise.all(waits)).toEqual([true, true]);
    expect(performance.now() - countedDown).toBeLessThan(2_000);
    expect(client.activity().channels).toEqual([]);
  });

  it("Deadbolt's trySetCount and last countDown send Redisson's messages on Redisson's channel", async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('deadbolt-sets');
    const latch = new CountDownLatch(client, name);
    const sharded = (await lockRuntime(client).publishCommand()) === 'spublish';
    const { messages, redis } = await rawSubscriber(ctx.backend(), 'redisson_countdownlatch__channel__{' + name + '}', sharded);
    subscribers.push(redis);
    await latch.trySetCount(2);
    await latch.countDown();
    await latch.countDown();
    expect(await eventually(() => messages.length === 2)).toBe(true);
    // Redisson's LongCodec: NEW_COUNT_MESSAGE 1, then ZERO_COUNT_MESSAGE 0, as decimal strings.
    expect(messages).toEqual([Buffer.from('1'), Buffer.from('0')]);
    // The count is where Redisson reads it: a decimal string at the name, gone at zero.
    await latch.trySetCount(7);
    expect(await ctx.backend().command(['GET', name], name)).toBe('7');
  });
});
