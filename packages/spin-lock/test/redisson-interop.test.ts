// A Java service using Redisson's RSpinLock and Node services using Deadbolt's SpinLock share one
// lock on the same name, with no pub/sub on either side. The Java side is the Redisson peer of
// @deadbolt/conformance: RedissonSpinLock's scripts, its backoff waiting and its LockTask (issue 18).
import { BACKENDS, sleep, useRedissonPeers, useSuiteContext, type SuiteContext } from '@deadbolt/conformance';
import { SPIN_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { LockLostError } from '@deadbolt/core';
import { SpinLock } from '@deadbolt/spin-lock';
import { describe, expect, it } from 'vitest';

// A short watchdog timeout, so that a test sees several renewals; renewals every 500 ms, so that
// a loaded machine's stalls (600 ms failed once, a renewal late by a few hundred ms) stay within it.
const WATCHDOG = 1_500;

async function holdsOf(ctx: SuiteContext, name: string, field: string): Promise<number> {
  return Number((await ctx.backend().command(['HGET', name, field], name)) ?? 0);
}

describe.each(BACKENDS)('SpinLock and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(SPIN_LOCK), adapter, topology);
  const peers = useRedissonPeers(ctx);

  it("Java holds, a Node waiter polls and takes the lock after Java's last unlock", async () => {
    const java = await peers.start();
    const lock = new SpinLock(await ctx.client(), ctx.uniqueName('java-holds'));
    const redisson = java.getSpinLock(lock.name);
    const thread = java.newThreadId();
    await redisson.lock(thread);
    await redisson.lock(thread); // re-entered: Redisson's field counts 2
    expect(await holdsOf(ctx, lock.name, redisson.lockName(thread))).toBe(2);
    const waiting = lock.acquire({ waitTime: 20_000 });
    await sleep(300);
    await redisson.unlock(thread);
    expect(await lock.tryAcquire()).toBeNull(); // one Java hold remains
    await redisson.unlock(thread);
    const held = await waiting;
    expect(await lock.holdCount(held.owner)).toBe(1);
    expect(await redisson.tryLockOnce(thread)).toBe(false);
    await held.release();
    expect(await redisson.isLocked()).toBe(false);
    expect(java.subscribedChannels).toEqual([]);
  });

  it("Node holds, a Java spin waiter takes the lock after Node's last release", async () => {
    const java = await peers.start();
    const lock = new SpinLock(await ctx.client(), ctx.uniqueName('node-holds'));
    const redisson = java.getSpinLock(lock.name);
    const thread = java.newThreadId();
    const held = await lock.acquire();
    const inner = await lock.acquire({ owner: held.owner }); // re-entered: Deadbolt's field counts 2
    const client = lock.client;
    expect(await holdsOf(ctx, lock.name, `${client.id}:${held.owner}`)).toBe(2);
    expect(await redisson.tryLock(thread, { waitTime: 200 })).toBe(false);
    const javaWaits = redisson.tryLock(thread, { waitTime: 20_000 });
    await sleep(300);
    await inner.release();
    expect(await redisson.tryLockOnce(java.newThreadId())).toBe(false); // one Node hold remains
    const attemptsBefore = redisson.attempts;
    await held.release();
    expect(await javaWaits).toBe(true);
    expect(redisson.attempts).toBeGreaterThan(attemptsBefore); // it got there by polling
    expect(await lock.tryAcquire()).toBeNull();
    await redisson.unlock(thread);
    expect(await lock.isLocked()).toBe(false);
    expect(java.subscribedChannels).toEqual([]);
  });

  it("each side's watchdog keeps its hold alive past several leases while the other is kept out", async () => {
    const java = await peers.start({ lockWatchdogTimeout: WATCHDOG });
    const client = await ctx.client({ watchdogTimeout: WATCHDOG });
    const lock = new SpinLock(client, ctx.uniqueName('renewed'));
    const redisson = java.getSpinLock(lock.name);
    const thread = java.newThreadId();

    const held = await lock.acquire();
    await sleep(WATCHDOG * 3);
    expect(held.signal.aborted).toBe(false);
    expect(await redisson.tryLock(thread, { waitTime: 100 })).toBe(false);
    const ttl = await redisson.remainTimeToLive();
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(WATCHDOG);
    await held.release();

    await redisson.lock(thread);
    await sleep(WATCHDOG * 3);
    expect(await redisson.isLocked()).toBe(true);
    expect(await lock.tryAcquire({ waitTime: 100 })).toBeNull();
    const javaTtl = await lock.remainingTtl();
    expect(javaTtl).toBeGreaterThan(0);
    expect(javaTtl).toBeLessThanOrEqual(WATCHDOG);
    await redisson.unlock(thread);
    expect(await lock.isLocked()).toBe(false);
  });

  it("force-unlock on either side frees the other side's hold, announcing nothing", async () => {
    const java = await peers.start();
    const lock = new SpinLock(await ctx.client(), ctx.uniqueName('forced'));
    const redisson = java.getSpinLock(lock.name);
    const thread = java.newThreadId();
    await redisson.lock(thread);
    expect(await lock.forceUnlock()).toBe(true);
    const held = await lock.acquire({ waitTime: 5_000 });
    expect(await redisson.forceUnlock()).toBe(true);
    expect(await redisson.tryLockOnce(thread)).toBe(true);
    await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
    await redisson.unlock(thread);
    expect(await ctx.backend().pubsubChannels()).toEqual([]);
  });
});
