// A Java service using Redisson's RCountDownLatch and Node services using Deadbolt share a latch
// (issue 18). The Java side is the Redisson peer of @deadbolt/conformance: Redisson's scripts (the
// count a decimal string at the name, message 1 for a new count, 0 when a countdown reaches zero),
// and its waiting threads blocked on the gate of its CountDownLatchPubSub, which 0 opens and 1 closes.
import {
  BACKENDS,
  eventually,
  publishCommandOf,
  sleep,
  useBackendContext,
  useRedissonPeers,
  type Backend,
  type RedissonPeer,
} from '@deadbolt/conformance';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { CountDownLatch, latchChannelName } from '../src/index.js';

/** How long a wait may last in these tests: far longer than any of them takes, so only a message ends it in time. */
const LONG_WAIT = 20_000;

/** A subscriber connection of its own on the server that serves `channel`, keeping the raw bytes of each message. */
async function rawSubscriber(
  backend: Backend,
  channel: string,
  sharded: boolean,
): Promise<{ messages: Buffer[]; redis: Redis }> {
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

/** Resolves once the peer's waiting threads have subscribed `channel` and had time to block on its gate. */
async function javaWaitsOn(java: RedissonPeer, channel: string): Promise<boolean> {
  const subscribed = await eventually(() => java.subscribedChannels.includes(channel));
  await sleep(50);
  return subscribed;
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
    const redisson = java.getCountDownLatch(name);
    expect(redisson.channelName).toBe(latchChannelName(name));
    expect(await redisson.trySetCount(2)).toBe(true);
    const latch = new CountDownLatch(client, name);
    expect(await latch.getCount()).toBe(2);
    expect(await latch.trySetCount(9)).toBe(false);
    const waits = [latch.await({ waitTime: LONG_WAIT }), latch.await({ waitTime: LONG_WAIT })];
    expect(await eventually(() => client.activity().channels.includes(latch.channel))).toBe(true);
    await sleep(50);
    await redisson.countDown();
    expect(await latch.getCount()).toBe(1);
    const countedDown = performance.now();
    await redisson.countDown();
    expect(await Promise.all(waits)).toEqual([true, true]);
    expect(performance.now() - countedDown).toBeLessThan(2_000);
    expect(client.activity().channels).toEqual([]);
    expect(await redisson.getCount()).toBe(0);
  });

  it("Deadbolt's trySetCount and last countDown send Redisson's messages on Redisson's channel", async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('deadbolt-sets');
    const latch = new CountDownLatch(client, name);
    const sharded = (await publishCommandOf(client)) === 'spublish';
    const { messages, redis } = await rawSubscriber(
      ctx.backend(),
      'redisson_countdownlatch__channel__{' + name + '}',
      sharded,
    );
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

  it("Deadbolt's last countDown opens the awaits of Java's threads", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const latch = new CountDownLatch(client, ctx.uniqueName('deadbolt-opens-java'));
    const redisson = java.getCountDownLatch(latch.name);
    expect(java.publishCommand).toBe(await publishCommandOf(client));
    expect(await latch.trySetCount(2)).toBe(true);
    expect(await redisson.trySetCount(5)).toBe(false);
    expect(await redisson.getCount()).toBe(2);
    // One thread waits with a wait time, one without.
    const threads = [redisson.await(LONG_WAIT), redisson.await()];
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    await latch.countDown();
    expect(await redisson.getCount()).toBe(1);
    const countedDown = performance.now();
    await latch.countDown();
    expect(await Promise.all(threads)).toEqual([true, true]);
    expect(performance.now() - countedDown).toBeLessThan(2_000);
    expect(await eventually(() => java.subscribedChannels.length === 0)).toBe(true);
  });

  it("Java's countDown and Deadbolt's countDown count one latch down together", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const latch = new CountDownLatch(client, ctx.uniqueName('both-count'));
    const redisson = java.getCountDownLatch(latch.name);
    expect(await redisson.trySetCount(4)).toBe(true);
    const nodeWait = latch.await({ waitTime: LONG_WAIT });
    const javaWait = redisson.await(LONG_WAIT);
    expect(await eventually(() => client.activity().channels.includes(latch.channel))).toBe(true);
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    await Promise.all([redisson.countDown(), latch.countDown(), redisson.countDown()]);
    expect(await latch.getCount()).toBe(1);
    let settled = false;
    void Promise.all([nodeWait, javaWait]).then(() => (settled = true));
    await sleep(100);
    expect(settled).toBe(false);
    await latch.countDown();
    expect(await Promise.all([nodeWait, javaWait])).toEqual([true, true]);
    expect(await redisson.getCount()).toBe(0);
  });

  it("Deadbolt's delete wakes no Java thread: Redisson announces a delete as a new count", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const latch = new CountDownLatch(client, ctx.uniqueName('deleted'));
    const redisson = java.getCountDownLatch(latch.name);
    await latch.trySetCount(3);
    const nodeWait = latch.await({ waitTime: LONG_WAIT });
    let javaDone = false;
    const javaWait = redisson.await(1_500).finally(() => (javaDone = true));
    expect(await eventually(() => client.activity().channels.includes(latch.channel))).toBe(true);
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    expect(await latch.delete()).toBe(true);
    // Deadbolt's waiter reads the count 0 at once. Java's thread, whose gate message 1 keeps
    // closed, sleeps on until its wait time is up, then reads the count 0 too.
    expect(await nodeWait).toBe(true);
    await sleep(300);
    expect(javaDone).toBe(false);
    expect(await javaWait).toBe(true);
    expect(java.subscribedChannels).toEqual([]);
  });

  it('a Java await that runs out resolves false and leaves no subscription', async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const latch = new CountDownLatch(client, ctx.uniqueName('java-times-out'));
    const redisson = java.getCountDownLatch(latch.name);
    await latch.trySetCount(1);
    expect(await redisson.await(200)).toBe(false);
    expect(java.subscribedChannels).toEqual([]);
    expect(await latch.getCount()).toBe(1);
    // And an unset latch is open to Java at once, as to Deadbolt.
    expect(await java.getCountDownLatch(ctx.uniqueName('never-set')).await(LONG_WAIT)).toBe(true);
  });
});
