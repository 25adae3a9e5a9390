// MultiLock exclusion and waiting on one deployment (standalone, and a cluster with a member in
// every master's slots), on both adapters: one holder at a time, no deadlock between opposite
// orders, and a failed or abandoned acquisition leaves nothing taken, queued or subscribed.
import { BACKENDS, countOverlaps, eventually, sleep } from '@deadbolt/conformance';
import { LockWaitTimeoutError, type HeldLock } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { MultiLock } from '@deadbolt/multilock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';
import { useGroupContext } from './groupContext.js';

describe.each(BACKENDS)('MultiLock on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useGroupContext(adapter, topology);

  const WAIT = { waitTime: 40_000 };

  it('ten tasks over one MultiLock of three kinds: exactly one wins each round, and one holds it at a time', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'ten');
    const multi = new MultiLock(locks);
    for (let round = 0; round < 5; round++) {
      const attempts = await Promise.all(Array.from({ length: 10 }, () => multi.tryAcquire()));
      const winners = attempts.filter((held) => held !== null);
      expect(winners).toHaveLength(1);
      await winners[0]!.release();
    }
    expect(await countOverlaps(10, 4, (_, critical) => multi.withLock(critical, WAIT))).toEqual({
      runs: 40,
      mostAtOnce: 1,
    });
    await ctx.nothingLeft(keys);
  });

  it('MultiLocks over the same locks in opposite orders, and over a part of them, all finish under load', async () => {
    const clients = [await ctx.client(), await ctx.client(), await ctx.client()];
    const names = ctx.spreadNames('opposite');
    const groups = [
      new MultiLock(names.map((name) => clients[0]!.lock(name))),
      new MultiLock([...names].reverse().map((name) => clients[1]!.lock(name))),
      new MultiLock([names[2], names[0]].map((name) => clients[2]!.lock(name))),
    ];
    // Four tasks on each MultiLock.
    const overlaps = await countOverlaps(12, 4, (task, critical) => groups[task % 3]!.withLock(critical, WAIT));
    expect(overlaps).toEqual({ runs: 48, mostAtOnce: 1 });
    await ctx.nothingLeft(names);
  });

  it('members in the slots of every master are taken and given back together', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'slots');
    const cluster = ctx.backend().cluster;
    if (cluster) {
      const masters = await Promise.all(locks.map((lock) => cluster.masterForKey(lock.name)));
      expect(new Set(masters.map((master) => master.port)).size).toBe(3);
    }
    const held = await new MultiLock(locks).acquire();
    expect(held.members.map((member) => member.name)).toEqual(locks.map((lock) => lock.name));
    for (const lock of locks) expect(await ctx.exists(lock.name)).toBe(true);
    await held.release();
    expect(held.released).toBe(true);
    await ctx.nothingLeft(keys);
  });

  it('a member held elsewhere: no-wait and timed-out attempts give back what they took', async () => {
    const [one, two, third] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'busy');
    const blocker = await new FairLock(third, locks[1].name).acquire();
    const multi = new MultiLock(locks);
    expect(await multi.tryAcquire()).toBeNull();
    await expect(multi.acquire({ waitTime: 400 })).rejects.toBeInstanceOf(LockWaitTimeoutError);
    expect(await multi.tryAcquire({ waitTime: 200, leaseTime: 5_000 })).toBeNull();
    expect(await locks[0].isLocked()).toBe(false);
    expect(await locks[2].isLocked()).toBe(false);
    expect(await ctx.exists(locks[1].keys.queue)).toBe(false);
    await blocker.release();
    await ctx.nothingLeft(keys);
  });

  it('waits for the busy member holding nothing else, then takes them all', async () => {
    const [one, two, third] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'wait');
    const blocker = await new ReadWriteLock(third, locks[2].name).writeLock().acquire();
    let taken: HeldLock[] | undefined;
    const waiting = new MultiLock(locks).acquire({ waitTime: 20_000 }).then((held) => (taken = [...held.members]));
    await sleep(300);
    // Waiting on the write lock, it holds none of the others.
    expect(taken).toBeUndefined();
    expect(await locks[0].isLocked()).toBe(false);
    expect(await locks[1].isLocked()).toBe(false);
    const released = performance.now();
    await blocker.release();
    await waiting;
    // Woken by the release, not by the blocker's 30 s lease.
    expect(performance.now() - released).toBeLessThan(5_000);
    for (const member of taken!) expect(member.signal.aborted).toBe(false);
    for (const lock of locks) expect(await lock.isLocked()).toBe(true);
    await Promise.all(taken!.map((member) => member.release()));
    await ctx.nothingLeft(keys);
  });

  it('an abort while waiting rejects with the reason and leaves nothing taken, queued or subscribed', async () => {
    const [one, two, third] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const { locks, keys } = ctx.mixedMembers(one, two, 'abort');
    const blocker = await new FairLock(third, locks[1].name).acquire();
    const controller = new AbortController();
    const waiting = new MultiLock(locks).acquire({ signal: controller.signal, leaseTime: 10_000 });
    expect(await eventually(() => two.activity().channels.length === 1)).toBe(true);
    expect(await ctx.exists(locks[1].keys.queue)).toBe(true);
    controller.abort(new Error('user gave up'));
    await expect(waiting).rejects.toThrow('user gave up');
    expect(await ctx.exists(locks[1].keys.queue)).toBe(false);
    expect(await locks[0].isLocked()).toBe(false);
    expect(await locks[2].isLocked()).toBe(false);
    expect(two.activity().channels).toEqual([]);
    await blocker.release();
    await ctx.nothingLeft(keys);
  });
});
