// A Java service using Redisson and a Node service using Deadbolt on one read-write lock. The
// Java side is played by raw scripts that do what Redisson's read and write locks do to the keys
// (from its documented behaviour), reduced to what each test needs.
import { BACKENDS, eventually, useSuiteContext } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';
import { ReadLock, ReadWriteLock, WriteLock } from '@deadbolt/rwlock';
import { describe, expect, it } from 'vitest';
import { readLock } from './rwlockKinds.js';

// KEYS: hash, read-hold key prefix <tag>:<field>:rwlock_timeout. ARGV: lease, reader field, writer field.
const JAVA_READ_LOCK = `
local mode = redis.call('hget', KEYS[1], 'mode')
local mine = mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1
if mode ~= false and mode ~= 'read' and not mine then return redis.call('pttl', KEYS[1]) end
if mode == false then redis.call('hset', KEYS[1], 'mode', 'read') end
local n = redis.call('hincrby', KEYS[1], ARGV[2], 1)
redis.call('set', KEYS[2] .. ':' .. n, 1, 'px', ARGV[1])
redis.call('pexpire', KEYS[1], math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
return nil`;

// The last read hold of the only reader. KEYS: hash, channel, read-hold key prefix. ARGV: reader field, publish command.
const JAVA_READ_UNLOCK = `
redis.call('del', KEYS[3] .. ':' .. redis.call('hget', KEYS[1], ARGV[1]))
redis.call('hdel', KEYS[1], ARGV[1])
if redis.call('hlen', KEYS[1]) > 1 then return 0 end
redis.call('del', KEYS[1])
redis.call(ARGV[2], KEYS[2], 0)
return 1`;

// KEYS: hash. ARGV: lease, writer field.
const JAVA_WRITE_LOCK = `
local mode = redis.call('hget', KEYS[1], 'mode')
if mode == false then
  redis.call('hset', KEYS[1], 'mode', 'write', ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])`;

// The only write hold, no read holds. KEYS: hash, channel. ARGV: publish command.
const JAVA_WRITE_UNLOCK = `
redis.call('del', KEYS[1])
redis.call(ARGV[1], KEYS[2], 1)
return 1`;

const JAVA_OWNER = '5b1e0a63-98c4-4f0e-8a5d-2c7e4f9d0b17:1';

/** A read lock that can send a release request again, as a driver does after a reconnect. */
class ResendingReadLock extends ReadLock {
  resend(owner: string, requestId: string): Promise<boolean> {
    return this.releaseOnce(`${this.client.id}:${owner}`, 30_000, requestId);
  }
}

/** A write lock that can send a release request again. */
class ResendingWriteLock extends WriteLock {
  resend(owner: string, requestId: string): Promise<boolean> {
    return this.releaseOnce(`${this.client.id}:${owner}`, 30_000, requestId);
  }
}

describe.each(BACKENDS)('ReadWriteLock interop with Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(readLock, adapter, topology);
  const raw = (key: string, ...args: (string | number)[]) => ctx.backend().command(args.map(String), key);
  const java = (lock: ReadWriteLock) => {
    const prefix = lock.keys.readHoldKey(JAVA_OWNER, 0).slice(0, -2);
    return {
      readLock: () => raw(lock.name, 'EVAL', JAVA_READ_LOCK, 2, lock.name, prefix, 30_000, JAVA_OWNER, `${JAVA_OWNER}:write`),
      readUnlock: async (client: LockClient) =>
        raw(lock.name, 'EVAL', JAVA_READ_UNLOCK, 3, lock.name, lock.keys.channel, prefix, JAVA_OWNER, await client.publishCommand()),
      writeLock: () => raw(lock.name, 'EVAL', JAVA_WRITE_LOCK, 1, lock.name, 30_000, `${JAVA_OWNER}:write`),
      writeUnlock: async (client: LockClient) => raw(lock.name, 'EVAL', JAVA_WRITE_UNLOCK, 2, lock.name, lock.keys.channel, await client.publishCommand()),
    };
  };
  const isTtl = (reply: unknown) => typeof reply === 'number' && reply > 0;

  it("a read lock Redisson holds shares with Deadbolt's readers, keeps its writer out, and Redisson's unlock wakes it", async () => {
    const client = await ctx.client();
    const lock = new ReadWriteLock(client, ctx.uniqueName('java-reads'));
    const redisson = java(lock);
    expect(await redisson.readLock()).toBeNull();
    const read = await lock.readLock().tryAcquire();
    expect(read).not.toBeNull();
    await read!.release();
    // Redisson's reader is still there.
    expect(await lock.readLock().isLocked()).toBe(true);
    expect(await lock.writeLock().tryAcquire()).toBeNull();
    const waiting = lock.writeLock().acquire({ waitTime: 20_000 });
    await eventually(() => client.channels.channels.length === 1);
    const unlocked = performance.now();
    expect(await redisson.readUnlock(client)).toBe(1);
    const write = await waiting;
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await write.release();
  });

  it("Deadbolt's holds are stored in Redisson's layout and keep Redisson out as Redisson would", async () => {
    const client = await ctx.client();
    const lock = new ReadWriteLock(client, ctx.uniqueName('node-layout'));
    const redisson = java(lock);
    const read = await lock.readLock().acquire({ owner: '7' });
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual(['mode', 'read', `${client.id}:7`, '1']);
    expect(isTtl(await raw(lock.name, 'PTTL', `{${lock.name}}:${client.id}:7:rwlock_timeout:1`))).toBe(true);
    expect(isTtl(await redisson.writeLock())).toBe(true);
    // Redisson's reader shares; Deadbolt's release leaves it holding.
    expect(await redisson.readLock()).toBeNull();
    await read.release();
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual(['mode', 'read', `${JAVA_OWNER}`, '1']);
    expect(await redisson.readUnlock(client)).toBe(1);

    const write = await lock.writeLock().acquire({ owner: '8' });
    expect(await raw(lock.name, 'HGETALL', lock.name)).toEqual(['mode', 'write', `${client.id}:8:write`, '1']);
    expect(isTtl(await redisson.readLock())).toBe(true);
    expect(isTtl(await redisson.writeLock())).toBe(true);
    await write.release();
    expect(await raw(lock.name, 'EXISTS', lock.name)).toBe(0);
    expect(await redisson.writeLock()).toBeNull();
  });

  it("Redisson's write lock keeps Deadbolt's readers out, and its unlock lets every one of them in", async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('java-writes');
    const redisson = java(new ReadWriteLock(one, name));
    expect(await redisson.writeLock()).toBeNull();
    const readers = [one, two, two].map((client) => new ReadWriteLock(client, name).readLock());
    expect(await readers[0]!.tryAcquire()).toBeNull();
    const waits = readers.map((reader) => reader.acquire({ waitTime: 20_000 }));
    await eventually(() => one.channels.channels.length === 1 && two.channels.channels.length === 1);
    const unlocked = performance.now();
    await redisson.writeUnlock(one);
    const holds = await Promise.all(waits);
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await Promise.all(holds.map((held) => held.release()));
    expect(await readers[0]!.isLocked()).toBe(false);
  });

  it('a read or write release re-sent after it succeeded returns the first outcome instead of not-held', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('latch');
    const read = new ResendingReadLock(client, name);
    await read.acquire({ owner: 'o' });
    expect(await read.resend('o', 'read-1')).toBe(true);
    expect(await read.resend('o', 'read-1')).toBe(true);
    expect(await read.resend('o', 'read-2')).toBe(false);
    const write = new ResendingWriteLock(client, name);
    await write.acquire({ owner: 'o' });
    expect(await write.resend('o', 'write-1')).toBe(true);
    expect(await write.resend('o', 'write-1')).toBe(true);
    expect(await write.resend('o', 'write-2')).toBe(false);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });
});
