// A Java service using Redisson's RSemaphore and Node services using Deadbolt share a semaphore
// (issue 18). The Java side is the Redisson peer of @deadbolt/conformance: Redisson's scripts
// (a release is INCRBY and a publish of the new value on redisson_sc:{name}), and its waiting
// threads subscribed through its SemaphorePubSub, which lets through as many threads as a
// message names permits.
import {
  BACKENDS,
  eventually,
  sleep,
  useBackendContext,
  useRedissonPeers,
  type RedissonPeer,
  type RedissonSemaphore,
} from '@deadbolt/conformance';
import { LockLostError } from '@deadbolt/core';
import { holdMarkersKey } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { Semaphore } from '../src/index.js';
import { listen, sharded } from './messages.js';

/** How long a wait may last in these tests: far longer than any of them takes, so only a message ends it in time. */
const LONG_WAIT = 20_000;
/** A TTL far longer than a test, as a Java service may give a semaphore. */
const SEMAPHORE_TTL_MS = 600_000;

/** Resolves once the peer's waiting threads have subscribed `channel` and had time to block on its latch. */
async function javaWaitsOn(java: RedissonPeer, channel: string): Promise<boolean> {
  const subscribed = await eventually(() => java.subscribedChannels.includes(channel));
  await sleep(50);
  return subscribed;
}

describe.each(BACKENDS)('Semaphore and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const peers = useRedissonPeers(ctx);

  it("Redisson's releases wake Deadbolt's waiter", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('redisson-release'));
    const { name, channel } = semaphore;
    const redisson = java.getSemaphore(name);
    expect(redisson.channelName).toBe(channel);
    expect(java.publishCommand).toBe((await sharded(client)) ? 'spublish' : 'publish');
    await semaphore.trySetPermits(0);
    const waiter = semaphore.acquire(2, { waitTime: LONG_WAIT });
    expect(await eventually(() => client.activity().channels.includes(channel))).toBe(true);
    await redisson.release(1);
    await redisson.release(1);
    const released = performance.now();
    const held = await waiter;
    expect(performance.now() - released).toBeLessThan(2_000);
    expect(held.permits).toBe(2);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await redisson.availablePermits()).toBe(0);
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

  it("addPermits drops the TTL a Java trySetPermits(n, ttl) gave the semaphore, as Redisson's own does; release(n) keeps it", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const pttl = (name: string) => ctx.backend().command(['PTTL', name], name).then(Number);
    const [mine, theirs] = [ctx.uniqueName('ttl-deadbolt'), ctx.uniqueName('ttl-redisson')];
    for (const name of [mine, theirs])
      expect(await java.getSemaphore(name).trySetPermits(3, SEMAPHORE_TTL_MS)).toBe(true);
    const semaphore = new Semaphore(client, mine);
    await semaphore.release(1);
    await java.getSemaphore(theirs).release(1);
    expect([await pttl(mine), await pttl(theirs)].every((ttl) => ttl > SEMAPHORE_TTL_MS / 2)).toBe(true);
    await semaphore.addPermits(1);
    await java.getSemaphore(theirs).addPermits(1);
    expect([await pttl(mine), await pttl(theirs)]).toEqual([-1, -1]);
    expect([await semaphore.availablePermits(), await java.getSemaphore(theirs).availablePermits()]).toEqual([5, 5]);
  });

  it("Deadbolt's release wakes Java's waiting threads, as many as it names permits", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('deadbolt-wakes-java'));
    const redisson = java.getSemaphore(semaphore.name);
    await semaphore.trySetPermits(0);
    const threads = [redisson.tryAcquire(1, LONG_WAIT), redisson.tryAcquire(1, LONG_WAIT)];
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    const attemptsAsleep = redisson.attempts;
    await semaphore.release(2);
    const released = performance.now();
    expect(await Promise.all(threads)).toEqual([true, true]);
    expect(performance.now() - released).toBeLessThan(2_000);
    // Each thread woke once and took a permit: no spinning, no attempt that found nothing.
    expect(redisson.attempts).toBe(attemptsAsleep + 2);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await eventually(() => java.subscribedChannels.length === 0)).toBe(true);
  });

  it("Java's blocking acquire takes what Deadbolt's held permits give back", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('held-wakes-java'));
    const redisson = java.getSemaphore(semaphore.name);
    expect(await redisson.trySetPermits(3)).toBe(true);
    const held = await semaphore.acquire(3);
    expect(await redisson.tryAcquire(1)).toBe(false);
    let javaHolds = false;
    const thread = redisson.acquire(2).then(() => (javaHolds = true));
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    expect(javaHolds).toBe(false);
    await held.release();
    await thread;
    expect(javaHolds).toBe(true);
    expect(await semaphore.availablePermits()).toBe(1);
    // Java's release is the other way round: it wakes a Deadbolt waiter for the two it gives back.
    const waiter = semaphore.acquire(3, { waitTime: LONG_WAIT });
    expect(await eventually(() => client.activity().channels.includes(semaphore.channel))).toBe(true);
    await redisson.release(2);
    expect((await waiter).permits).toBe(3);
    expect(await redisson.availablePermits()).toBe(0);
  });

  it("Java's trySetPermits, addPermits and drainPermits are what Deadbolt reads, and the other way round", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('settings'));
    const redisson = java.getSemaphore(semaphore.name);
    expect(await redisson.availablePermits()).toBe(0);
    expect(await redisson.trySetPermits(3)).toBe(true);
    expect(await semaphore.trySetPermits(5)).toBe(false);
    expect(await semaphore.availablePermits()).toBe(3);
    await redisson.addPermits(-1);
    expect(await semaphore.availablePermits()).toBe(2);
    await semaphore.addPermits(4);
    expect(await redisson.availablePermits()).toBe(6);
    expect(await redisson.drainPermits()).toBe(6);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await semaphore.tryAcquire(1)).toBeNull();
    await semaphore.release(2);
    expect(await redisson.drainPermits()).toBe(2);
    // A semaphore Deadbolt sets is one Java cannot set again.
    const other = new Semaphore(client, ctx.uniqueName('set-by-deadbolt'));
    expect(await other.trySetPermits(4)).toBe(true);
    expect(await java.getSemaphore(other.name).trySetPermits(1)).toBe(false);
    expect(await java.getSemaphore(other.name).tryAcquire(4)).toBe(true);
    expect(await other.availablePermits()).toBe(0);
  });

  it("Java's addPermits wakes Deadbolt's waiter and Deadbolt's addPermits wakes Java's", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('add-wakes'));
    const redisson = java.getSemaphore(semaphore.name);
    await redisson.trySetPermits(0);
    const nodeWaiter = semaphore.acquire(2, { waitTime: LONG_WAIT });
    expect(await eventually(() => client.activity().channels.includes(semaphore.channel))).toBe(true);
    await redisson.addPermits(2);
    expect((await nodeWaiter).permits).toBe(2);
    const javaThread = redisson.tryAcquire(3, LONG_WAIT);
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    await semaphore.addPermits(3);
    expect(await javaThread).toBe(true);
    expect(await semaphore.availablePermits()).toBe(0);
  });

  it('a Java wait that runs out takes nothing and leaves no subscription', async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('java-times-out'));
    const redisson = java.getSemaphore(semaphore.name);
    await semaphore.trySetPermits(1);
    expect(await redisson.tryAcquire(2, 200)).toBe(false);
    expect(java.subscribedChannels).toEqual([]);
    expect(await semaphore.availablePermits()).toBe(1);
  });

  it('Java threads and Deadbolt tasks hammering one semaphore never hold more than its permits', async () => {
    const permits = 2;
    const [client, java] = [await ctx.client(), await peers.start()];
    const name = ctx.uniqueName('mixed-hammer');
    expect(await java.getSemaphore(name).trySetPermits(permits)).toBe(true);
    // Every holder runs in this process: counted from the moment its acquisition returns until
    // just before it gives the permit back, which lies inside the real hold.
    let holding = 0;
    let mostAtOnce = 0;
    let holds = 0;
    const hold = async (take: () => Promise<() => Promise<unknown>>) => {
      const giveBack = await take();
      holding += 1;
      holds += 1;
      mostAtOnce = Math.max(mostAtOnce, holding);
      await sleep(3);
      holding -= 1;
      await giveBack();
    };
    const rounds = 5;
    const javaThreads = Array.from({ length: 3 }, async (_, thread) => {
      const redisson = java.getSemaphore(name);
      for (let round = 0; round < rounds; round++) {
        await hold(async () => {
          // Half the threads block without a wait time, half wait with one.
          if (thread % 2 === 0) await redisson.acquire(1);
          else expect(await redisson.tryAcquire(1, LONG_WAIT)).toBe(true);
          return () => redisson.release(1);
        });
      }
    });
    const nodeTasks = Array.from({ length: 3 }, async () => {
      const semaphore = new Semaphore(client, name);
      for (let round = 0; round < rounds; round++) {
        await hold(async () => {
          const held = await semaphore.acquire(1, { waitTime: LONG_WAIT });
          return () => held.release();
        });
      }
    });
    await Promise.all([...javaThreads, ...nodeTasks]);
    expect(holds).toBe(6 * rounds);
    expect(mostAtOnce).toBeLessThanOrEqual(permits);
    expect(await new Semaphore(client, name).availablePermits()).toBe(permits);
    expect(client.activity().channels).toEqual([]);
    expect(await eventually(() => java.subscribedChannels.length === 0)).toBe(true);
  });

  it('a Java process that dies while its thread waits takes no permit', async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('java-shutdown'));
    const redisson = java.getSemaphore(semaphore.name);
    await semaphore.trySetPermits(0);
    const thread = redisson.acquire(1);
    expect(await javaWaitsOn(java, redisson.channelName)).toBe(true);
    await java.shutdown();
    await expect(thread).rejects.toThrow(/shut down/);
    await semaphore.release(1);
    expect(await semaphore.availablePermits()).toBe(1);
  });

  // The holds Deadbolt keeps beside the semaphore (deadbolt_holds:{name}) live as its key does,
  // though Java changes the key's TTL without touching them (see semaphore-holds.lua).
  it("Java's addPermits, drainPermits and clearExpire drop the TTL of a semaphore Deadbolt holds permits of, and its expire lengthens it: the permits stay releasable past the TTL they were taken under", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const on = (name: string, ...args: (string | number)[]) => ctx.backend().command(args, name);
    // Each drift, and the permits available after Deadbolt's release: 3, one taken, then the drift.
    const drifts: [string, (redisson: RedissonSemaphore) => Promise<unknown>, number][] = [
      ['addPermits', (redisson) => redisson.addPermits(1), 4],
      ['drainPermits', (redisson) => redisson.drainPermits(), 1],
      ['clearExpire', (redisson) => on(redisson.name, 'PERSIST', redisson.name), 3],
      ['expire', (redisson) => on(redisson.name, 'PEXPIRE', redisson.name, SEMAPHORE_TTL_MS), 3],
    ];
    const runs = await Promise.all(
      drifts.map(async ([label, drift, after]) => {
        const semaphore = new Semaphore(client, ctx.uniqueName(`drift-${label}`));
        const redisson = java.getSemaphore(semaphore.name);
        expect(await redisson.trySetPermits(3, 1_000)).toBe(true);
        const held = await semaphore.acquire(1);
        await drift(redisson);
        return { label, semaphore, redisson, held, after };
      }),
    );
    // Past the TTL the holds got with the permits.
    await sleep(1_500);
    for (const { label, semaphore, redisson, held, after } of runs) {
      expect(await on(semaphore.name, 'EXISTS', semaphore.name), label).toBe(1);
      await held.release();
      expect(await redisson.availablePermits(), label).toBe(after);
    }
  });

  it('a semaphore without TTL that Java expires takes the permits Deadbolt holds with it: the next Deadbolt script drops the holds, and their release gives nothing back', async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('java-expires'));
    const { name } = semaphore;
    const redisson = java.getSemaphore(name);
    const on = (...args: (string | number)[]) => ctx.backend().command(args, name);
    expect(await redisson.trySetPermits(3)).toBe(true);
    const [held, other] = [await semaphore.acquire(1), await semaphore.acquire(1)];
    expect(Number(await on('PTTL', holdMarkersKey(name)))).toBe(-1);
    // Java's expire(300 ms): the key goes, and the permits held with it.
    await on('PEXPIRE', name, 300);
    await sleep(500);
    expect(await on('EXISTS', name)).toBe(0);
    expect(await semaphore.tryAcquire(1)).toBeNull();
    expect(await on('EXISTS', holdMarkersKey(name))).toBe(0);
    await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
    await expect(other.release()).rejects.toBeInstanceOf(LockLostError);
    // Not set afresh with permits of a semaphore that is gone.
    expect(await on('EXISTS', name)).toBe(0);
    expect(await redisson.trySetPermits(3, SEMAPHORE_TTL_MS)).toBe(true);
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it("after Java deletes a semaphore without TTL and sets it again with one, the holds take the new key's TTL at Deadbolt's next script", async () => {
    const [client, java] = [await ctx.client(), await peers.start()];
    const semaphore = new Semaphore(client, ctx.uniqueName('java-resets'));
    const { name } = semaphore;
    const redisson = java.getSemaphore(name);
    const pttl = (key: string) => ctx.backend().command(['PTTL', key], name).then(Number);
    expect(await redisson.trySetPermits(3)).toBe(true);
    const held = await semaphore.acquire(1);
    await ctx.backend().command(['DEL', name], name);
    expect(await redisson.trySetPermits(2, SEMAPHORE_TTL_MS)).toBe(true);
    // Deadbolt has not looked yet; an attempt that finds too few does.
    expect(await pttl(holdMarkersKey(name))).toBe(-1);
    expect(await semaphore.tryAcquire(5)).toBeNull();
    const [key, holds] = [await pttl(name), await pttl(holdMarkersKey(name))];
    expect(holds).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
    expect(Math.abs(holds - key)).toBeLessThan(1_000);
    expect(held.released).toBe(false);
  });
});
