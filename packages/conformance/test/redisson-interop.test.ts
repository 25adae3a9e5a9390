// A Java service using Redisson's RLock and a Node service using Deadbolt on one lock name. The
// Java side is the Redisson peer (src/redisson): Redisson's scripts, subscriptions and LockTask.
import { call, lockChannelName, lockCommands, lockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends/index.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';
import { useRedissonPeers } from '../src/redisson/useRedissonPeers.js';
import { useSuiteContext } from '../src/SuiteContext.js';
import { eventually, sleep } from '../src/timing.js';

// Short, as a Java service configured with Config.setLockWatchdogTimeout(1500) would run.
const WATCHDOG = 1_500;

describe.each(BACKENDS)('Redisson interop on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(LOCK), adapter, topology);
  const peers = useRedissonPeers(ctx);
  const raw = (args: (string | number)[], key: string) => ctx.backend().command(args.map(String), key);

  it("a lock Redisson holds with its LockTask renewing stays out of Deadbolt's reach past the watchdog timeout many times over", async () => {
    const java = await peers.start({ lockWatchdogTimeout: WATCHDOG });
    const client = await ctx.client();
    const lock = ctx.lock(client, 'java-renewed');
    const redisson = java.getLock(lock.name);
    const thread = java.newThreadId();
    await redisson.lock(thread);
    expect(await raw(['HGETALL', lock.name], lock.name)).toEqual([redisson.lockName(thread), '1']);
    const until = performance.now() + 4 * WATCHDOG;
    let attempts = 0;
    while (performance.now() < until) {
      expect(await lock.tryAcquire()).toBeNull();
      const ttl = Number(await raw(['PTTL', lock.name], lock.name));
      expect(ttl).toBeGreaterThan(0);
      expect(ttl).toBeLessThanOrEqual(WATCHDOG);
      attempts++;
      await sleep(200);
    }
    // About 27 attempts and 12 LockTask runs (every third of the watchdog timeout) when nothing is
    // late; the bounds leave room for a loaded machine's late timers and slow calls.
    expect(attempts).toBeGreaterThan(12);
    expect(java.renewals.lockTask.runs).toBeGreaterThanOrEqual(8);
    await redisson.unlock(thread);
    expect(java.renewals.lockTask.names).toEqual([]);
    const held = await lock.tryAcquire();
    expect(held).not.toBeNull();
    await held!.release();
  });

  it("Redisson's unlock wakes a Deadbolt waiter at once, long before the lease would end", async () => {
    const java = await peers.start();
    const client = await ctx.client();
    const lock = ctx.lock(client, 'java-first');
    const redisson = java.getLock(lock.name);
    const thread = java.newThreadId();
    await redisson.lock(thread);
    expect(await lock.tryAcquire()).toBeNull();
    const waiting = lock.acquire({ waitTime: 20_000 });
    expect(await eventually(() => client.activity().channels.length === 1)).toBe(true);
    const unlocked = performance.now();
    await redisson.unlock(thread);
    const held = await waiting;
    // The lease (30 s) would end much later: the waiter was woken by the message.
    expect(performance.now() - unlocked).toBeLessThan(2_000);
    await held.release();
  });

  it("Deadbolt's release wakes a Redisson thread waiting on the lock's channel", async () => {
    const java = await peers.start();
    const client = await ctx.client();
    const lock = ctx.lock(client, 'node-first');
    const held = await lock.acquire({ owner: '42' });
    expect(await raw(['HGETALL', lock.name], lock.name)).toEqual([`${client.id}:42`, '1']);
    const redisson = java.getLock(lock.name);
    const thread = java.newThreadId();
    expect(await redisson.tryLockOnce(thread)).toBe(false);
    const waiting = redisson.tryLock(thread, { waitTime: 20_000 });
    expect(await eventually(() => java.subscribedChannels.includes(lockChannelName(lock.name)))).toBe(true);
    const attemptsBefore = redisson.attempts;
    const released = performance.now();
    await held.release();
    expect(await waiting).toBe(true);
    // Woken by Deadbolt's message, not by the 30 s lease it slept for.
    expect(performance.now() - released).toBeLessThan(2_000);
    expect(redisson.attempts - attemptsBefore).toBeLessThanOrEqual(2);
    expect(await raw(['HGETALL', lock.name], lock.name)).toEqual([redisson.lockName(thread), '1']);
    expect(await lock.tryAcquire()).toBeNull();
    await redisson.unlock(thread);
    expect(await lock.isLocked()).toBe(false);
  });

  it('a release re-sent after it succeeded returns the first outcome instead of not-held', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'latch');
    const field = `${client.id}:o`;
    const runtime = lockRuntime(client);
    const taken = await runtime.run(
      call(lockCommands.acquire, { name: lock.name, field, hold: 'hold-1', lease: 30_000 }),
    );
    expect(taken).toEqual({ status: 'taken', grant: null });
    const release = (hold: string) => runtime.run(call(lockCommands.release, { name: lock.name, field, hold }));
    expect(await release('hold-1')).toBe('freed');
    expect(await release('hold-1')).toBe('freed');
    expect(await release('hold-2')).toBe('notHeld');
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
