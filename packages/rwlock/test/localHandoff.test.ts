// Local hand-offs of the write lock beyond the conformance suite's (issue 16): what only a
// read-write lock has. A writer keeping read holds downgrades rather than passing; read waiters
// are never passed the write lock.
import { BACKENDS, eventually, publishes, sleep, useSuiteContext } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import type { LockClient } from '@deadbolt/core';
import { call, holdMarkersKey, lockRuntime } from '@deadbolt/core/kit';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';
import { writeHandOff } from '../src/commands/writeHandOff.js';

describe.each(BACKENDS)('the write lock hands off locally on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(READ_WRITE_LOCK, 'write'), adapter, topology);
  const raw = (name: string, ...args: (string | number)[]) => ctx.backend().command(args, name);
  /** A hash as field -> value. */
  const hash = async (name: string, key = name) => {
    const entries = (await raw(name, 'HGETALL', key)) as string[];
    return Object.fromEntries(
      Array.from({ length: entries.length / 2 }, (_, i) => [entries[2 * i], entries[2 * i + 1]]),
    ) as Record<string, string>;
  };
  /** Once the client's waiters sleep on the lock's channel, where a release can pass the lock to a writer. */
  const asleep = async (client: LockClient) => {
    await eventually(() => client.activity().channels.length === 1);
    await sleep(50);
  };

  it("a writer keeping read holds downgrades: a local waiting writer stays out while that read hold stands, and gets in at the read's release", async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('handoff-downgrade');
    const lock = new ReadWriteLock(client, name);
    const write = await lock.writeLock().acquire({ owner: 'o' });
    const read = await lock.readLock().acquire({ owner: 'o' });
    let writerIn = false;
    const waiting = lock.writeLock().acquire({ waitTime: 10_000 });
    void waiting.then(() => (writerIn = true));
    await asleep(client);
    await write.release();
    await sleep(200);
    expect(writerIn).toBe(false);
    expect(await hash(name)).toEqual({ mode: 'read', [`${client.id}:o`]: '1' });
    await read.release();
    const next = await waiting;
    expect(await hash(name)).toEqual({ mode: 'write', [`${client.id}:${next.owner}:write`]: '1' });
    await next.release();
    expect(await raw(name, 'EXISTS', name)).toBe(0);
    expect(client.activity().handoffLocks).toBe(0);
  });

  it('the hand-off of a writer keeping read holds replies released, publishes once, and a request re-sent within the latch gets the same and changes nothing', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('handoff-downgrade-twice');
    const lock = new ReadWriteLock(client, name);
    const write = await lock.writeLock().acquire({ owner: 'o' });
    const read = await lock.readLock().acquire({ owner: 'o' });
    const marks = await hash(name, holdMarkersKey(name));
    const writeHold = Object.keys(marks).find((hold) => marks[hold] === `${client.id}:o:write`);
    expect(writeHold).toBeDefined();
    const request = call(writeHandOff, {
      name,
      from: { field: `${client.id}:o`, hold: writeHold! },
      to: { field: `${client.id}:receiver`, hold: `${client.id}-test:1` },
      lease: 5_000,
    });
    const runtime = lockRuntime(client);
    const published = await publishes(ctx, name);
    const downgraded = { mode: 'read', [`${client.id}:o`]: '1' };
    expect(await runtime.run(request)).toEqual({ status: 'released' });
    expect(await hash(name)).toEqual(downgraded);
    expect(await runtime.run(request)).toEqual({ status: 'released' });
    expect(await hash(name)).toEqual(downgraded);
    expect(await publishes(ctx, name)).toBe(published + 1);
    // The holder's own release of that hold, within the latch, gets the first outcome and
    // changes nothing either: the read hold stands.
    await write.release();
    expect(await hash(name)).toEqual(downgraded);
    expect(await lock.readLock().holdCount('o')).toBe(1);
    await read.release();
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });

  it('a release passes the write lock to a waiting writer of the same client, never to a waiting reader of it, who gets in when write mode ends', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('handoff-writer-not-reader');
    const lock = new ReadWriteLock(client, name);
    const holder = await lock.writeLock().acquire();
    let readerIn = false;
    const reader = lock.readLock().acquire({ waitTime: 10_000 });
    void reader.then(() => (readerIn = true));
    await asleep(client);
    const writer = lock.writeLock().acquire({ waitTime: 10_000 });
    await sleep(100);
    const published = await publishes(ctx, name);
    await holder.release();
    const next = await writer;
    expect(await publishes(ctx, name)).toBe(published);
    expect(await hash(name)).toEqual({ mode: 'write', [`${client.id}:${next.owner}:write`]: '1' });
    await sleep(100);
    expect(readerIn).toBe(false);
    await next.release();
    const read = await reader;
    expect(await hash(name)).toEqual({ mode: 'read', [`${client.id}:${read.owner}`]: '1' });
    await read.release();
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });

  it("tasks of two clients writing, reading and downgrading: a writer is never beside another writer or another owner's reader", async () => {
    const clients = [await ctx.client(), await ctx.client({ localHandoff: { maxPasses: 3, maxMillis: 20 } })];
    const name = ctx.uniqueName('handoff-mixed');
    const writers = new Set<string>();
    const readers = new Map<string, number>();
    const violations: string[] = [];
    const othersReading = (who: string) => [...readers].some(([owner, count]) => owner !== who && count > 0);
    const enterRead = (who: string) => {
      if ([...writers].some((owner) => owner !== who)) violations.push("a reader beside another owner's writer");
      readers.set(who, (readers.get(who) ?? 0) + 1);
    };
    const leaveRead = (who: string) => readers.set(who, (readers.get(who) ?? 1) - 1);
    const tasks = clients.flatMap((client, c) => {
      const lock = new ReadWriteLock(client, name);
      const writing = Array.from({ length: 3 }, async (_, t) => {
        for (let i = 0; i < 8; i++) {
          const write = await lock.writeLock().acquire({ waitTime: 30_000 });
          const who = `${c}:${write.owner}`;
          if (writers.size > 0 || othersReading(who)) violations.push('a writer not alone');
          writers.add(who);
          // Every other round of the first task a downgrade: read as the same owner, then let the write go.
          const read = t === 0 && i % 2 === 0 ? await lock.readLock().acquire({ owner: write.owner }) : undefined;
          if (read) enterRead(who);
          await sleep(i % 2);
          writers.delete(who);
          await write.release();
          if (read) {
            await sleep(1);
            leaveRead(who);
            await read.release();
          }
        }
      });
      const reading = Array.from({ length: 2 }, async () => {
        for (let i = 0; i < 8; i++) {
          const read = await lock.readLock().acquire({ waitTime: 30_000 });
          const who = `${c}:${read.owner}`;
          enterRead(who);
          await sleep(1);
          leaveRead(who);
          await read.release();
        }
      });
      return [...writing, ...reading];
    });
    await Promise.all(tasks);
    expect(violations).toEqual([]);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
    for (const client of clients) expect(client.activity().handoffLocks).toBe(0);
  }, 60_000);
});
