import { coreScripts, lockChannelName, unlockLatchKey, type LockClient } from '@deadbolt/core';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends.js';
import { plainLock } from '../src/LockKind.js';
import { useSuiteContext } from '../src/SuiteContext.js';
import { eventually } from '../src/timing.js';

// Redisson's RLock acquire, as a Java service would run it (from its documented behaviour).
const REDISSON_TRY_LOCK = `
if (redis.call('exists', KEYS[1]) == 0) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end;
if (redis.call('hexists', KEYS[1], ARGV[2]) == 1) then redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil; end;
return redis.call('pttl', KEYS[1]);`;

const JAVA_OWNER = '7c0b4b0e-3f7e-4c3b-9d0a-6f1f1b7f6c11:1';

describe.each(BACKENDS)('Redisson interop on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(plainLock, adapter, topology);
  const raw = (args: (string | number)[], key: string) => ctx.backend().command(args.map(String), key);
  const javaLocks = (name: string) => raw(['EVAL', REDISSON_TRY_LOCK, 1, name, 30_000, JAVA_OWNER], name);
  const javaUnlocks = async (client: LockClient, name: string) => {
    await raw(['DEL', name], name);
    await raw([(await client.publishCommand()).toUpperCase(), lockChannelName(name), 0], name);
  };

  it("a lock taken in Redisson's layout excludes Deadbolt, and Redisson's unlock wakes a Deadbolt waiter", async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'java-first');
    expect(await javaLocks(lock.name)).toBeNull();
    expect(await lock.tryAcquire()).toBeNull();
    const waiting = lock.acquire({ waitTime: 20_000 });
    await eventually(() => client.channels.channels.length === 1);
    const unlocked = performance.now();
    await javaUnlocks(client, lock.name);
    const held = await waiting;
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await held.release();
  });

  it("a Deadbolt lock is stored in Redisson's layout and excludes Redisson", async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'node-first');
    const held = await lock.acquire({ owner: '42' });
    expect(await raw(['HGETALL', lock.name], lock.name)).toEqual([`${client.id}:42`, '1']);
    const ttl = await javaLocks(lock.name);
    expect(typeof ttl === 'number' && ttl > 0).toBe(true);
    await held.release();
    expect(await javaLocks(lock.name)).toBeNull();
  });

  it('a release re-sent after it succeeded returns the first outcome instead of not-held', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'latch');
    await lock.acquire({ owner: 'o' });
    const field = `${client.id}:o`;
    const publish = await client.publishCommand();
    const keys = [lock.name, lockChannelName(lock.name), unlockLatchKey(lock.name, 'request-1')];
    const args = [0, 30_000, field, publish, 5_000];
    expect(await client.scripts.run(coreScripts.release, keys, args)).toBe(1);
    expect(await client.scripts.run(coreScripts.release, keys, args)).toBe(1);
    const otherRequest = [lock.name, lockChannelName(lock.name), unlockLatchKey(lock.name, 'request-2')];
    expect(await client.scripts.run(coreScripts.release, otherRequest, args)).toBeNull();
  });

  it('scripts survive SCRIPT FLUSH between calls', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'flush');
    await (await lock.acquire()).release();
    for (const node of ctx.backend().nodes) await node.command('SCRIPT', 'FLUSH');
    const held = await lock.acquire();
    expect(await lock.isLocked()).toBe(true);
    await held.release();
  });
});
