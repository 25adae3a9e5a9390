// The Redisson peer against itself: the behaviours of Redisson's Java client that the interop
// tests rely on, checked on the keys, so that an interop test failing means Deadbolt differs from
// Redisson and not that the peer does.
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends/index.js';
import { useRedissonPeers } from '../src/redisson/useRedissonPeers.js';
import { useBackendContext } from '../src/SuiteContext.js';
import { eventually, sleep } from '../src/timing.js';

// The peer talks to Redis itself; the adapter of the context does not matter, the topology does.
const TOPOLOGIES = [...new Set(BACKENDS.map(({ topology }) => topology))];

describe.each(TOPOLOGIES)('the Redisson peer on %s', (topology) => {
  const ctx = useBackendContext('ioredis', topology);
  const peers = useRedissonPeers(ctx);
  const raw = (key: string, ...args: (string | number)[]) => ctx.backend().command(args, key);

  it('LockTask renews a lock taken without a lease until the last unlock, and never one that is gone', async () => {
    const java = await peers.start({ lockWatchdogTimeout: 600 });
    const name = ctx.uniqueName('lock-task');
    const lock = java.getLock(name);
    await lock.lock(1);
    await lock.lock(1);
    expect(await lock.holdCount(1)).toBe(2);
    await sleep(1_500);
    expect(Number(await raw(name, 'PTTL', name))).toBeGreaterThan(0);
    await lock.unlock(1);
    expect(java.renewals.lockTask.names).toEqual([name]);
    await lock.unlock(1);
    expect(java.renewals.lockTask.names).toEqual([]);
    expect(java.renewals.lockTask.running).toBe(false);
    await expect(lock.unlock(1)).rejects.toThrow(/not locked by current thread/);
    // Deleted under it: the next run finds it gone and stops renewing it.
    await lock.lock(2);
    await raw(name, 'DEL', name);
    expect(await eventually(() => java.renewals.lockTask.names.length === 0, 2_000)).toBe(true);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
  });

  it('a fair lock grants in order, moves deadlines on each grant, and a waiter that gives up leaves', async () => {
    const java = await peers.start({ fairLockWaitTimeout: 60_000 });
    const name = ctx.uniqueName('fair');
    const lock = java.getFairLock(name);
    await lock.lock(1);
    const second = lock.lock(2);
    await eventually(async () => (await lock.queue()).length === 1);
    const impatient = lock.tryLock(3, { waitTime: 1_000 });
    const third = lock.lock(4);
    await eventually(async () => (await lock.queue()).length === 3);
    const [d2, d3, d4] = [await lock.deadline(2), await lock.deadline(3), await lock.deadline(4)];
    // Each deadline is the one ahead plus the waiter's wait (its waitTime, or threadWaitTime).
    expect(d3! - d2!).toBe(1_000);
    expect(d4! - d3!).toBe(60_000);
    expect(await impatient).toBe(false);
    // Leaving moved those behind by its own wait.
    expect(await lock.queue()).toEqual([lock.lockName(2), lock.lockName(4)]);
    expect(await lock.deadline(4)).toBe(d4! - 1_000);
    await lock.unlock(1);
    await second;
    // The grant moved everyone left by the granted waiter's wait.
    expect(await lock.deadline(4)).toBe(d4! - 1_000 - 60_000);
    await lock.unlock(2);
    await third;
    await lock.unlock(4);
    expect(await raw(name, 'EXISTS', name, lock.threadsQueueName, lock.timeoutSetName)).toBe(0);
  });

  it('ReadLockTask sets the hash and every read hold key of the thread to lockWatchdogTimeout', async () => {
    const java = await peers.start({ lockWatchdogTimeout: 900 });
    const name = ctx.uniqueName('read-task');
    const read = java.getReadWriteLock(name).readLock();
    await read.lock(1);
    await read.lock(1, 20_000);
    // A fixed lease of 20 s on hold 2: the task still sets the hash (and both holds) to 900 ms.
    await eventually(() => java.renewals.readLockTask.runs >= 1);
    expect(Number(await raw(name, 'PTTL', name))).toBeLessThanOrEqual(900);
    expect(Number(await raw(name, 'PTTL', `${read.timeoutPrefix(1)}:2`))).toBeLessThanOrEqual(900);
    await read.unlock(1);
    await read.unlock(1);
    expect(await raw(name, 'EXISTS', name)).toBe(0);
    expect(java.renewals.readLockTask.names).toEqual([]);
  });

  it('shutdown ends waiting threads, renewals and subscriptions, and unlocks nothing', async () => {
    const java = await peers.start();
    const name = ctx.uniqueName('shutdown');
    const lock = java.getLock(name);
    await lock.lock(1);
    const waiting = lock.lock(2).then(
      () => 'taken',
      (error: Error) => error.name,
    );
    await eventually(() => java.subscribedChannels.length === 1);
    await java.shutdown();
    expect(await waiting).toBe('PeerShutdownError');
    expect(java.renewals.running).toBe(false);
    expect(await eventually(async () => !(await ctx.backend().pubsubChannels()).includes(lock.channelName))).toBe(true);
    expect(await raw(name, 'HGETALL', name)).toEqual([lock.lockName(1), '1']);
  });
});
