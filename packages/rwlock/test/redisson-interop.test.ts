// A Java service using Redisson and a Node service using Deadbolt on one read-write lock. The
// Java side is the Redisson peer of @deadbolt/conformance: RedissonReadLock's and
// RedissonWriteLock's scripts, their waiting on redisson_rwlock:{name}, and the renewal tasks
// (ReadLockTask for readers, LockTask for writers).
import { BACKENDS, eventually, sleep, useRedissonPeers, useSuiteContext } from '@deadbolt/conformance';
import { READ_WRITE_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { LockBase, type LockClient } from '@deadbolt/core';
import { lockRuntime } from '@deadbolt/core/kit';
import { ReadWriteLock, readLockKind, writeLockKind, type ReadWriteMode } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';

// A Java service configured with setLockWatchdogTimeout(1500).
const JAVA_WATCHDOG = 1_500;

/**
 * A read or write lock that can send a release request again, as a driver does after a reconnect:
 * its kind's `acquire` notes each attempt's hold id.
 */
class ResendingHalf extends LockBase {
  readonly mode: ReadWriteMode;
  readonly #attempted: { hold: string };
  constructor(client: LockClient, name: string, mode: ReadWriteMode) {
    const attempted = { hold: '' };
    super(client, name, (checked) => {
      const kind = mode === 'read' ? readLockKind(checked) : writeLockKind(checked);
      return {
        ...kind,
        acquire: (attempt) => {
          attempted.hold = attempt.hold;
          return kind.acquire(attempt);
        },
      };
    });
    this.mode = mode;
    this.#attempted = attempted;
  }
  async resend(owner: string, hold = this.#attempted.hold): Promise<boolean> {
    const kind = this.mode === 'read' ? readLockKind(this.name) : writeLockKind(this.name);
    return (await lockRuntime(this.client).run(kind.release(`${this.client.id}:${owner}`, hold))) !== 'notHeld';
  }
}

describe.each(BACKENDS)('ReadWriteLock interop with Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(READ_WRITE_LOCK, 'read'), adapter, topology);
  const peers = useRedissonPeers(ctx);
  const raw = (key: string, ...args: (string | number)[]) => ctx.backend().command(args.map(String), key);
  const isTtl = (reply: unknown) => typeof reply === 'number' && reply > 0;

  it("a read lock Redisson holds shares with Deadbolt's readers, keeps its writer out, and Redisson's unlock wakes it", async () => {
    const client = await ctx.client();
    const java = await peers.start();
    const lock = new ReadWriteLock(client, ctx.uniqueName('java-reads'));
    const redisson = java.getReadWriteLock(lock.name).readLock();
    const thread = java.newThreadId();
    await redisson.lock(thread);
    const read = await lock.readLock().tryAcquire();
    expect(read).not.toBeNull();
    await read!.release();
    // Redisson's reader is still there.
    expect(await lock.readLock().isLocked()).toBe(true);
    expect(await lock.writeLock().tryAcquire()).toBeNull();
    const waiting = lock.writeLock().acquire({ waitTime: 20_000 });
    await eventually(() => client.activity().channels.length === 1);
    const unlocked = performance.now();
    await redisson.unlock(thread);
    const write = await waiting;
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await write.release();
  });

  it("Deadbolt's holds are stored in Redisson's layout and keep Redisson out as Redisson would", async () => {
    const client = await ctx.client();
    const java = await peers.start();
    const lock = new ReadWriteLock(client, ctx.uniqueName('node-layout'));
    const redisson = java.getReadWriteLock(lock.name);
    const thread = java.newThreadId();
    const read = await lock.readLock().acquire({ owner: '7' });
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual(['mode', 'read', `${client.id}:7`, '1']);
    expect(isTtl(await raw(lock.name, 'PTTL', `{${lock.name}}:${client.id}:7:rwlock_timeout:1`))).toBe(true);
    expect(isTtl(await redisson.writeLock().tryLockInner(thread, 30_000))).toBe(true);
    // Redisson's reader shares; Deadbolt's release leaves it holding.
    expect(await redisson.readLock().tryLockInner(thread, 30_000)).toBeNull();
    await read.release();
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual([
      'mode',
      'read',
      redisson.readLock().lockName(thread),
      '1',
    ]);
    expect(isTtl(await raw(lock.name, 'PTTL', `${redisson.readLock().timeoutPrefix(thread)}:1`))).toBe(true);
    await redisson.readLock().unlock(thread);
    expect(await raw(lock.name, 'EXISTS', lock.name)).toBe(0);

    const write = await lock.writeLock().acquire({ owner: '8' });
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual(['mode', 'write', `${client.id}:8:write`, '1']);
    expect(isTtl(await redisson.readLock().tryLockInner(thread, 30_000))).toBe(true);
    expect(isTtl(await redisson.writeLock().tryLockInner(thread, 30_000))).toBe(true);
    await write.release();
    expect(await raw(lock.name, 'EXISTS', lock.name)).toBe(0);
    expect(await redisson.writeLock().tryLockOnce(thread)).toBe(true);
    await redisson.writeLock().unlock(thread);
  });

  it("Redisson's write lock keeps Deadbolt's readers out, and its unlock lets every one of them in", async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const java = await peers.start();
    const name = ctx.uniqueName('java-writes');
    const redisson = java.getReadWriteLock(name).writeLock();
    const thread = java.newThreadId();
    await redisson.lock(thread);
    const readers = [one, two, two].map((client) => new ReadWriteLock(client, name).readLock());
    expect(await readers[0]!.tryAcquire()).toBeNull();
    const waits = readers.map((reader) => reader.acquire({ waitTime: 20_000 }));
    await eventually(() => one.activity().channels.length === 1 && two.activity().channels.length === 1);
    const unlocked = performance.now();
    await redisson.unlock(thread);
    const holds = await Promise.all(waits);
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await Promise.all(holds.map((held) => held.release()));
    expect(await readers[0]!.isLocked()).toBe(false);
  });

  it("Deadbolt's write release wakes every Redisson thread waiting to read", async () => {
    const client = await ctx.client();
    const java = await peers.start();
    const lock = new ReadWriteLock(client, ctx.uniqueName('node-writes'));
    const redisson = java.getReadWriteLock(lock.name).readLock();
    const write = await lock.writeLock().acquire();
    const threads = [java.newThreadId(), java.newThreadId()];
    const reads = threads.map((thread) => redisson.tryLock(thread, { waitTime: 20_000 }));
    expect(await eventually(() => java.subscribedChannels.includes(lock.keys.channel))).toBe(true);
    // Both threads have tried and sleep on the latch for the writer's 30 s lease.
    await sleep(200);
    const released = performance.now();
    await write.release();
    expect(await Promise.all(reads)).toEqual([true, true]);
    expect(performance.now() - released).toBeLessThan(2_000);
    for (const thread of threads) await redisson.unlock(thread);
    expect(await raw(lock.name, 'EXISTS', lock.name)).toBe(0);
  });

  // Bug #6: Redisson's ReadLockTask sets the hash's TTL to its lockWatchdogTimeout every third of
  // it, shortening a Deadbolt reader's longer fixed lease; when that Java process dies, the hash
  // expires with the Deadbolt reader's hold in it, and a writer gets in while that lease lasts.
  it("a Deadbolt reader's fixed lease keeps writers out after a Java reader renewed by ReadLockTask dies", async () => {
    const client = await ctx.client({ watchdogTimeout: JAVA_WATCHDOG });
    const java = await peers.start({ lockWatchdogTimeout: JAVA_WATCHDOG });
    const lock = new ReadWriteLock(client, ctx.uniqueName('reader-outlives-java'));
    const lease = 6_000;
    const read = await lock.readLock().acquire({ owner: 'reader', leaseTime: lease });
    const readUntil = performance.now() + lease;
    const redisson = java.getReadWriteLock(lock.name);
    const thread = java.newThreadId();
    await redisson.readLock().lock(thread);
    // ReadLockTask runs every 500 ms, each time setting the hash's TTL to Redisson's 1.5 s.
    expect(await eventually(() => java.renewals.readLockTask.runs >= 2)).toBe(true);

    // The Java process dies: its read hold is never unlocked, its renewals stop.
    java.stopRenewals();
    const died = performance.now();
    const intruders: string[] = [];
    const javaWriter = (await peers.start()).getReadWriteLock(lock.name).writeLock();
    while (intruders.length === 0 && performance.now() < readUntil - 500) {
      const write = await lock.writeLock().tryAcquire();
      if (write) {
        intruders.push(`Deadbolt writer at ${Math.round(performance.now() - died)} ms after the death`);
        await write.release();
      }
      if (await javaWriter.tryLockOnce(1)) {
        intruders.push(`Java writer at ${Math.round(performance.now() - died)} ms after the death`);
        await javaWriter.unlock(1);
      }
      await sleep(250);
    }
    expect(intruders).toEqual([]);
    expect(await lock.readLock().isHeldBy('reader')).toBe(true);
    // On a loaded machine a renewal may not be confirmed before the covered time runs out: the
    // reader is then told it may have lost its lock, and its release rejects with that news.
    await read.release().catch((error: unknown) => {
      if (!read.signal.aborted || error !== read.signal.reason) throw error;
    });
    const write = await lock.writeLock().tryAcquire({ waitTime: 5_000 });
    expect(write).not.toBeNull();
    await write!.release();
  });

  it('a read or write release re-sent after it succeeded returns the first outcome instead of not-held', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('latch');
    const read = new ResendingHalf(client, name, 'read');
    await read.acquire({ owner: 'o' });
    expect(await read.resend('o')).toBe(true);
    expect(await read.resend('o')).toBe(true);
    expect(await read.resend('o', `${client.id}:not-a-hold`)).toBe(false);
    const write = new ResendingHalf(client, name, 'write');
    await write.acquire({ owner: 'o' });
    expect(await write.resend('o')).toBe(true);
    expect(await write.resend('o')).toBe(true);
    expect(await write.resend('o', `${client.id}:not-a-hold`)).toBe(false);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });
});
