// A Java service using Redisson's RFencedLock and Node services using Deadbolt share one lock and
// one sequence of tokens on the same name.
import { BACKENDS, eventually, useSuiteContext } from '@deadbolt/conformance';
import { lockChannelName } from '@deadbolt/core';
import { FencedLock } from '@deadbolt/fenced-lock';
import { describe, expect, it } from 'vitest';
import { fencedLock } from './fencedLockKind.js';

// Redisson's fenced acquire and its unlock, as a Java client runs them (from their documented
// behaviour). Acquire: KEYS lock, token counter; ARGV lease, owner field; replies {-1, token} when
// taken or re-entered, else {ttl, -1}. Unlock: KEYS lock, channel; ARGV message, lease, owner
// field, publish command; replies nil when not held, 0 when holds remain, 1 when freed.
const REDISSON_LOCK_AND_GET_TOKEN = `
if (redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1) then
  local token = redis.call('incr', KEYS[2]); redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1])
  return {-1, token}
end
return {redis.call('pttl', KEYS[1]), -1}`;
const REDISSON_UNLOCK = `
if (redis.call('hexists', KEYS[1], ARGV[3]) == 0) then return nil end
if (redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0) then redis.call('pexpire', KEYS[1], ARGV[2]); return 0 end
redis.call('del', KEYS[1]); redis.call(ARGV[4], KEYS[2], ARGV[1]); return 1`;

const JAVA_OWNER = '3b2f6a1e-9c4d-4f0a-8e7b-5d6c1a2b3c4d:88';

describe.each(BACKENDS)('FencedLock and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(fencedLock, adapter, topology);

  it("tokens continue across Redisson's and Deadbolt's acquisitions, and each side's unlock wakes the other", async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('redisson'));
    const { name, tokenKey } = lock;
    const eval_ = (script: string, keys: string[], args: (string | number)[]) =>
      ctx.backend().command(['EVAL', script, keys.length, ...keys, ...args], name);
    const javaLocks = () => eval_(REDISSON_LOCK_AND_GET_TOKEN, [name, tokenKey], [30_000, JAVA_OWNER]);
    const javaUnlocks = async () => eval_(REDISSON_UNLOCK, [name, lockChannelName(name)], [0, 30_000, JAVA_OWNER, await client.publishCommand()]);

    const held = await lock.acquire();
    expect(held.token).toBe(1n);
    const [ttl, refused] = (await javaLocks()) as [number, number];
    expect([ttl > 0, refused]).toEqual([true, -1]);
    await held.release();
    expect(await javaLocks()).toEqual([-1, 2]);
    expect(await javaLocks()).toEqual([-1, 3]); // a Java re-entry draws a token too
    expect(await lock.currentToken()).toBe(3n);

    const waiting = lock.acquire({ waitTime: 20_000 });
    await eventually(() => client.channels.channels.length === 1);
    expect(await javaUnlocks()).toBe(0);
    expect(await javaUnlocks()).toBe(1);
    const next = await waiting;
    expect(next.token).toBe(4n);
    await next.release();
  });
});
