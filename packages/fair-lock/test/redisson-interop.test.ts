// A Java service using Redisson's fair lock and Node services using Deadbolt share one queue.
import { BACKENDS, eventually, useSuiteContext } from '@deadbolt/conformance';
import { FairLock } from '@deadbolt/fair-lock';
import { describe, expect, it } from 'vitest';
import { fairLock } from './fairLockKind.js';
import { queueState } from './queueState.js';

// Redisson's fair-lock scripts as a Java client runs them, written from their documented
// behaviour. KEYS: lock, queue, deadlines, lock channel.
const DROP_STALE_HEADS = `
local now = tonumber(ARGV[4])
while true do
  local first = redis.call('lindex', KEYS[2], 0)
  if not first or tonumber(redis.call('zscore', KEYS[3], first)) > now then break end
  redis.call('zrem', KEYS[3], first); redis.call('lpop', KEYS[2])
end`;

// ARGV: lease, owner field, wait (threadWaitTime), now. Replies nil when taken, else a TTL.
const REDISSON_FAIR_ACQUIRE = `${DROP_STALE_HEADS}
if redis.call('exists', KEYS[1]) == 0 and (redis.call('exists', KEYS[2]) == 0 or redis.call('lindex', KEYS[2], 0) == ARGV[2]) then
  redis.call('lpop', KEYS[2]); redis.call('zrem', KEYS[3], ARGV[2])
  -- everyone behind moves up by this waiter's wait
  for _, waiter in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do redis.call('zincrby', KEYS[3], -tonumber(ARGV[3]), waiter) end
  redis.call('hset', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1); redis.call('pexpire', KEYS[1], ARGV[1]); return nil
end
local mine = redis.call('zscore', KEYS[3], ARGV[2])
if mine then return tonumber(mine) - tonumber(ARGV[3]) - now end
local last = redis.call('lindex', KEYS[2], -1)
local ttl = last and tonumber(redis.call('zscore', KEYS[3], last)) - now or redis.call('pttl', KEYS[1])
if redis.call('zadd', KEYS[3], ttl + tonumber(ARGV[3]) + now, ARGV[2]) == 1 then redis.call('rpush', KEYS[2], ARGV[2]) end
return ttl`;

// ARGV: message (0), lease, owner field, now, publish command. Replies nil when not held, else 0 or 1.
const REDISSON_FAIR_UNLOCK = `${DROP_STALE_HEADS}
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then return nil end
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then redis.call('pexpire', KEYS[1], ARGV[2]); return 0 end
redis.call('del', KEYS[1])
local successor = redis.call('lindex', KEYS[2], 0)
if successor then redis.call(ARGV[5], KEYS[4] .. ':' .. successor, ARGV[1]) end
return 1`;

const JAVA_WAITER = '5d1b8f3e-2c4a-4e59-8b7d-0a6c9e1f2b34:57';
const REDISSON_WAIT = 300_000;

describe.each(BACKENDS)('FairLock and Redisson on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(fairLock, adapter, topology);

  it("a waiter queued in Redisson's layout keeps its place between Deadbolt waiters, and each side wakes the other", async () => {
    const [a, b, c] = [await ctx.client(), await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('redisson');
    const queue = queueState(ctx, name);
    const { keys } = queue;
    const scriptKeys = [keys.lock, keys.queue, keys.timeouts, keys.channel];
    const redisson = (script: string, args: (string | number)[]) =>
      ctx.backend().command(['EVAL', script, scriptKeys.length, ...scriptKeys, ...args], keys.lock);
    const javaAcquires = () => redisson(REDISSON_FAIR_ACQUIRE, [30_000, JAVA_WAITER, REDISSON_WAIT, Date.now()]);
    const order: string[] = [];

    const held = await new FairLock(a, name).acquire();
    const first = new FairLock(b, name).withLock(() => order.push('node-1'), { owner: 'node-1' });
    await eventually(async () => (await queue.length()) === 1);
    // The Java waiter arrives second and listens on its own channel, as Redisson's client does.
    const javaChannel = await c.channels.join(keys.waiterChannel(JAVA_WAITER));
    expect(await javaAcquires()).not.toBeNull();
    const last = new FairLock(c, name).withLock(() => order.push('node-2'), { owner: 'node-2' });
    await eventually(async () => (await queue.length()) === 3);
    expect(await queue.waiters()).toEqual([`${b.id}:node-1`, JAVA_WAITER, `${c.id}:node-2`]);

    await held.release();
    await first;
    // Woken on its channel, the Java waiter tries until it has the lock; node-2 keeps waiting.
    const deadline = performance.now() + 10_000;
    while ((await javaAcquires()) !== null) await javaChannel.sleep(deadline - performance.now());
    javaChannel.release();
    expect(performance.now()).toBeLessThan(deadline);
    order.push('java');
    expect(await queue.waiters()).toEqual([`${c.id}:node-2`]);
    // Redisson's unlock wakes the Deadbolt waiter at the head on its own channel.
    expect(await redisson(REDISSON_FAIR_UNLOCK, [0, 30_000, JAVA_WAITER, Date.now(), await a.publishCommand()])).toBe(1);
    await last;
    expect(order).toEqual(['node-1', 'java', 'node-2']);
    expect(await queue.keysLeft()).toBe(0);
  });
});
