// A Java service using Redisson's RFencedLock and Node services using Deadbolt share one lock and
// one sequence of tokens on the same name. The Java side is the Redisson peer of
// @deadbolt/conformance: RedissonFencedLock's scripts, its waiting and its LockTask.
import { BACKENDS, eventually, useRedissonPeers, useSuiteContext } from '@deadbolt/conformance';
import { FENCED_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { lockChannelName } from '@deadbolt/core/kit';
import { FencedLock } from '@deadbolt/fenced-lock';
import { describe, expect, it } from 'vitest';

describe.each(BACKENDS)('FencedLock and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FENCED_LOCK), adapter, topology);
  const peers = useRedissonPeers(ctx);

  it("tokens continue across Redisson's and Deadbolt's acquisitions, and each side's unlock wakes the other", async () => {
    const client = await ctx.client();
    const java = await peers.start();
    const lock = new FencedLock(client, ctx.uniqueName('redisson'));
    const redisson = java.getFencedLock(lock.name);
    const thread = java.newThreadId();
    expect(redisson.tokenName).toBe(lock.tokenKey);

    const held = await lock.acquire();
    expect(held.token).toBe(1n);
    const refused = await redisson.tryLockAndGetTokenInner(thread, 30_000);
    expect([refused.ttl > 0, refused.token]).toEqual([true, -1]);
    // A Java thread waits for the lock on its channel; Deadbolt's release wakes it.
    const javaWaits = redisson.tryLockAndGetToken(thread, 20_000);
    expect(await eventually(() => java.subscribedChannels.includes(lockChannelName(lock.name)))).toBe(true);
    const released = performance.now();
    await held.release();
    expect(await javaWaits).toBe(2);
    expect(performance.now() - released).toBeLessThan(2_000);
    expect(await redisson.lockAndGetToken(thread)).toBe(3); // a Java re-entry draws a token too
    expect(await lock.currentToken()).toBe(3n);
    expect(await redisson.getToken()).toBe(3);

    const waiting = lock.acquire({ waitTime: 20_000 });
    await eventually(() => client.activity().channels.length === 1);
    await redisson.unlock(thread);
    expect(await lock.isLocked()).toBe(true);
    const unlocked = performance.now();
    await redisson.unlock(thread);
    const next = await waiting;
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    expect(next.token).toBe(4n);
    await next.release();
    // Redisson's tryLock without a token API draws one as well.
    expect(await redisson.tryLockOnce(thread)).toBe(true);
    expect(await lock.currentToken()).toBe(5n);
    await redisson.unlock(thread);
  });
});
