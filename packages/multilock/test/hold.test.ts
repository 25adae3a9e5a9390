// A held MultiLock on one deployment (standalone, and a cluster with a member in every master's
// slots), on both adapters: leases trimmed to the one asked for, the watchdog renewing every
// member, a lost member aborting the signal, extend, owners and withLock.
import { BACKENDS, eventually, sleep } from '@deadbolt/conformance';
import { LockLostError, LockNotHeldError, LockWaitTimeoutError } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { HeldLockGroup, MultiLock } from '@deadbolt/multilock';
import { describe, expect, it } from 'vitest';
import { useGroupContext } from './groupContext.js';

describe.each(BACKENDS)('held MultiLock on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useGroupContext(adapter, topology);
  const pttl = async (key: string) => Number(await ctx.command(key, 'PTTL', key));

  it('with leaseTime and a wait, every member ends on that lease, and the group is lost when it runs out', async () => {
    const [one, two, third] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'lease');
    // Busy for a while, so that the acquisition takes more than one round.
    await third.lock(locks[0].name).acquire({ leaseTime: 400 });
    const held = await new MultiLock(locks).acquire({ waitTime: 10_000, leaseTime: 2_000 });
    for (const lock of locks) {
      const ttl = await pttl(lock.name);
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(2_000);
    }
    expect(held.members.map((member) => member.leaseTime)).toEqual([2_000, 2_000, 2_000]);
    expect(await eventually(() => held.signal.aborted, 5_000)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    // The signal aborts when the first member's lease ends as this process counts it, which is a
    // little before Redis, counting from the request's arrival, ends the members.
    const allEnded = async () => (await Promise.all(locks.map((lock) => lock.isLocked()))).every((locked) => !locked);
    expect(await eventually(allEnded, 1_000, 5)).toBe(true);
    // A group that was lost releases as a lost hold does: with its signal's LockLostError.
    await expect(held.release()).rejects.toBe(held.signal.reason);
    await ctx.nothingLeft(keys);
  });

  it('without leaseTime the watchdog of each client keeps every member alive', async () => {
    const [one, two] = [await ctx.client({ watchdogTimeout: 1_200 }), await ctx.client({ watchdogTimeout: 1_200 })];
    const { locks, keys } = ctx.mixedMembers(one, two, 'watchdog');
    const held = await new MultiLock(locks).acquire();
    // Two and a half leases: only renewals keep the members alive this long.
    await sleep(3_000);
    expect(held.signal.aborted).toBe(false);
    for (const lock of locks) expect(await pttl(lock.name)).toBeGreaterThan(0);
    await held.release();
    await ctx.nothingLeft(keys);
  });

  it("a group waits the shortest defaultWaitTime of its members' clients when the call gives none", async () => {
    const [one, two] = [await ctx.client({ defaultWaitTime: 300 }), await ctx.client({ defaultWaitTime: 60_000 })];
    const { locks, keys } = ctx.mixedMembers(one, two, 'default-wait');
    const held = await new MultiLock(locks).acquire();
    const timedOut = await new MultiLock(locks).acquire().catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(LockWaitTimeoutError);
    expect(timedOut).toMatchObject({ waitTime: 300 });
    await held.release();
    await ctx.nothingLeft(keys);
  });

  it('a group taken with maxHoldTime ends when its members reach it', async () => {
    const [one, two] = [await ctx.client({ watchdogTimeout: 600 }), await ctx.client({ watchdogTimeout: 600 })];
    const { locks, keys } = ctx.mixedMembers(one, two, 'max-hold');
    const held = await new MultiLock(locks).acquire({ maxHoldTime: 1_000 });
    expect(held.keptByWatchdog).toBe(true);
    expect(await eventually(() => held.signal.aborted, 3_000)).toBe(true);
    expect(held.signal.reason).toMatchObject({ reason: 'maxHoldTimeReached' });
    await expect(held.extend(1_000)).rejects.toBe(held.signal.reason);
    await expect(held.release()).rejects.toBe(held.signal.reason);
    await ctx.nothingLeft(keys);
  });

  it('a member lost while held aborts the signal; release gives back the others and rejects with the loss', async () => {
    const [one, two, third] = [
      await ctx.client({ watchdogTimeout: 1_500 }),
      await ctx.client({ watchdogTimeout: 1_500 }),
      await ctx.client(),
    ];
    const { locks, keys } = ctx.mixedMembers(one, two, 'lost');
    const held = await new MultiLock(locks).acquire();
    expect(await new FairLock(third, locks[1].name).forceUnlock()).toBe(true);
    expect(await eventually(() => held.signal.aborted)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    expect((held.signal.reason as LockLostError).lockName).toBe(locks[1].name);
    await expect(held.release()).rejects.toBe(held.signal.reason);
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
    await ctx.nothingLeft(keys);
  });

  it('extend sets every member to the new lease; a released group cannot be extended', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'extend');
    // The write lock's extend only ever lengthens a lease (its hash is shared with readers), so
    // the acquisition sets a shorter one first.
    const held = await new MultiLock(locks).acquire({ leaseTime: 2_000 });
    await held.extend(5_000);
    for (const lock of locks) {
      const ttl = await pttl(lock.name);
      expect(ttl).toBeGreaterThan(3_000);
      expect(ttl).toBeLessThanOrEqual(5_000);
    }
    expect(held.members.map((member) => member.leaseTime)).toEqual([5_000, 5_000, 5_000]);
    await held.release();
    await expect(held.extend(5_000)).rejects.toBeInstanceOf(LockNotHeldError);
    await ctx.nothingLeft(keys);
  });

  it('an owner applies to every member and re-enters them all', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'owner');
    const multi = new MultiLock(locks);
    const first = await multi.acquire({ owner: 'job-7' });
    expect(first.owner).toBe('job-7');
    expect(first.members.map((member) => member.owner)).toEqual(['job-7', 'job-7', 'job-7']);
    const again = await multi.tryAcquire({ owner: 'job-7' });
    expect(again).not.toBeNull();
    for (const lock of locks) expect(await lock.holdCount('job-7')).toBe(2);
    expect(await multi.tryAcquire()).toBeNull();
    await again!.release();
    await first.release();
    await ctx.nothingLeft(keys);
  });

  it('withLock: member acquisitions inside re-enter, the callback error wins, and everything is released', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'withlock');
    const multi = new MultiLock(locks);
    const result = await multi.withLock(async (signal, held) => {
      expect(held).toBeInstanceOf(HeldLockGroup);
      expect(signal).toBe(held.signal);
      const inner = await locks[1].tryAcquire();
      expect(inner?.owner).toBe(held.members[1]!.owner);
      await inner!.release();
      const nested = await multi.tryAcquire();
      expect(nested?.members.map((member) => member.owner)).toEqual(held.members.map((member) => member.owner));
      await nested!.release();
      return 7;
    });
    expect(result).toBe(7);
    for (const lock of locks) expect(await lock.isLocked()).toBe(false);
    await expect(multi.withLock(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await ctx.nothingLeft(keys);
  });

  it('a MultiLock inside the withLock of one of its members re-enters that member instead of waiting for itself', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'nested');
    await locks[0].withLock(async (_, outer) => {
      await using held = await new MultiLock(locks).acquire({ waitTime: 5_000 });
      expect(held.members[0]!.owner).toBe(outer.owner);
      expect(await locks[0].holdCount(outer.owner)).toBe(2);
    });
    await ctx.nothingLeft(keys);
  });
});
