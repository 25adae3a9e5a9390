// Replica sync (LockClientOptions.replicaSync) on a master with a replica: standalone, and a
// cluster whose masters each have one. Replicas are paused and killed for real. Locks, the
// semaphores' permits and a latch's count.
import { ClientClosedError, ReplicaSyncError, type LockClient, type LockClientOptions } from '@deadbolt/core';
import { CountDownLatch } from '@deadbolt/countdown-latch';
import { PermitExpirableSemaphore, Semaphore } from '@deadbolt/semaphore';
import { parseInfo, type RedisNode } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from '../src/backends/index.js';
import { syncCalls, syncCommandsWithAof } from '../src/replicaSyncCommands.js';
import { useBackendContext, type BackendContext } from '../src/SuiteContext.js';

/** The running replica of the master that owns `key`. */
async function replicaFor(backend: Backend, key: string): Promise<RedisNode> {
  const master = backend.cluster ? await backend.cluster.masterForKey(key) : backend.nodes[0];
  for (const node of backend.nodes) {
    if (node === master || !node.running) continue;
    const info = parseInfo(await node.command('INFO', 'replication'));
    if (info.get('role') === 'slave' && Number(info.get('master_port')) === master?.port) return node;
  }
  throw new Error(`no replica of the master of ${key}`);
}

/** Runs a read on a replica; a cluster replica serves reads once told READONLY. */
async function readReplica(backend: Backend, replica: RedisNode, ...args: string[]): Promise<unknown> {
  const connection = await replica.connect();
  try {
    if (backend.cluster) await connection.command('READONLY');
    return await connection.command(...args);
  } finally {
    connection.close();
  }
}

/** How many WAITs the master owning `name` ran while `writes` ran. */
async function waitsDuring(ctx: BackendContext, name: string, writes: () => Promise<unknown>): Promise<number> {
  const before = await syncCalls(ctx, name, 'wait');
  await writes();
  return (await syncCalls(ctx, name, 'wait')) - before;
}

/** Nothing of a failed acquisition is left: no lock on the master, no subscription, no renewal. */
async function expectNothingLeft(backend: Backend, client: LockClient, name: string): Promise<void> {
  expect(await backend.command(['EXISTS', name], name)).toBe(0);
  expect(client.activity().channels).toEqual([]);
  expect(client.activity().renewing).toBe(0);
}

/** The semaphores, each acquiring and releasing permits its own way. */
const SEMAPHORES = [
  { kind: 'Semaphore', make: (client: LockClient, name: string) => new Semaphore(client, name) },
  {
    kind: 'PermitExpirableSemaphore',
    make: (client: LockClient, name: string) => new PermitExpirableSemaphore(client, name),
  },
] as const;

/** Runs `during` with `replica` paused, resuming it whatever happens. */
async function whilePaused<T>(replica: RedisNode, during: () => Promise<T>): Promise<T> {
  await replica.pause();
  try {
    return await during();
  } finally {
    await replica.resume();
  }
}

describe.each(BACKENDS)('replica sync on $adapter/$topology with a replica', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology, { replicas: 1, dedicated: true });

  it('with a live replica, acquire and release wait for it: the replica has each write as soon as the call returns', async () => {
    const client = await ctx.client({ replicaSync: { timeout: 10_000 } });
    const name = ctx.uniqueName('live');
    const replica = await replicaFor(ctx.backend(), name);
    const waits = await syncCalls(ctx, name, 'wait');
    const held = await client.lock(name).acquire({ owner: 'o' });
    expect(await readReplica(ctx.backend(), replica, 'HGETALL', name)).toEqual([`${client.id}:o`, '1']);
    await held.release();
    expect(await readReplica(ctx.backend(), replica, 'EXISTS', name)).toBe(0);
    expect(await syncCalls(ctx, name, 'wait')).toBe(waits + 2);
  });

  it('costs nothing when off: no WAIT is sent', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('off');
    expect(await waitsDuring(ctx, name, async () => (await client.lock(name).acquire()).release())).toBe(0);
  });

  it('with AOF on, uses WAITAOF on a server that has it (Redis 7.2 or later, Valkey) and WAIT on one before', async () => {
    const name = ctx.uniqueName('aof');
    const { used, unused } = await syncCommandsWithAof(ctx, name);
    // WAITAOF counts the replicas that wrote the lock to their AOF: every node has it on.
    const nodes = ctx.backend().nodes.filter((node) => node.running);
    for (const node of nodes) await node.command('CONFIG', 'SET', 'appendonly', 'yes');
    try {
      const client = await ctx.client({ replicaSync: { timeout: 10_000 } });
      const [usedBefore, unusedBefore] = [await syncCalls(ctx, name, used), await syncCalls(ctx, name, unused)];
      await (await client.lock(name).acquire()).release();
      expect(await syncCalls(ctx, name, used)).toBe(usedBefore + 2);
      expect(await syncCalls(ctx, name, unused)).toBe(unusedBefore);
    } finally {
      for (const node of nodes) await node.command('CONFIG', 'SET', 'appendonly', 'no');
    }
  });

  it('with the replica paused, acquire fails with ReplicaSyncError after the timeout and gives the lock back', async () => {
    const timeout = 300;
    const client = await ctx.client({ replicaSync: { timeout } });
    const name = ctx.uniqueName('paused');
    const replica = await replicaFor(ctx.backend(), name);
    await replica.pause();
    try {
      const started = performance.now();
      const error = await client
        .lock(name)
        .acquire()
        .catch((e: unknown) => e);
      // Ended by WAIT's timeout: not sooner, and not by the 10 s command timeout.
      const elapsed = performance.now() - started;
      expect(elapsed).toBeGreaterThanOrEqual(timeout - 10);
      expect(elapsed).toBeLessThan(5_000);
      expect(error).toBeInstanceOf(ReplicaSyncError);
      expect(error).toMatchObject({ operation: 'acquire', acknowledged: 0, required: 1, lockName: name });
      await expectNothingLeft(ctx.backend(), client, name);
      // tryAcquire and withLock fail the same way, and never run the callback.
      await expect(client.lock(name).tryAcquire()).rejects.toBeInstanceOf(ReplicaSyncError);
      let ran = false;
      await expect(client.lock(name).withLock(() => (ran = true))).rejects.toBeInstanceOf(ReplicaSyncError);
      expect(ran).toBe(false);
      await expectNothingLeft(ctx.backend(), client, name);
    } finally {
      await replica.resume();
    }
  });

  it('closing the client while an acquisition waits for its replica gives the lock back and says the client closed', async () => {
    const client = await ctx.client({ replicaSync: { timeout: 5_000 } });
    const name = ctx.uniqueName('closed-during-wait');
    const replica = await replicaFor(ctx.backend(), name);
    await replica.pause();
    let acquiring: Promise<unknown>;
    try {
      acquiring = client
        .lock(name)
        .acquire()
        .catch((e: unknown) => e);
      // The lock is taken on the master and the acquisition waits in WAIT for the paused replica.
      await expect.poll(() => ctx.backend().command(['EXISTS', name], name), { timeout: 5_000 }).toBe(1);
      await client.close();
    } finally {
      // The replica acknowledges: the wait succeeds, but nobody would renew the lock now.
      await replica.resume();
    }
    expect(await acquiring).toBeInstanceOf(ClientClosedError);
    expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    expect(client.activity().renewing).toBe(0);
  });

  it('with the replica paused, a release fails with ReplicaSyncError, and the lock is released on the master', async () => {
    const client = await ctx.client({ replicaSync: { timeout: 300 } });
    const name = ctx.uniqueName('paused-release');
    const replica = await replicaFor(ctx.backend(), name);
    const held = await client.lock(name).acquire();
    await replica.pause();
    try {
      await expect(held.release()).rejects.toMatchObject({
        name: 'ReplicaSyncError',
        operation: 'release',
        acknowledged: 0,
      });
      await expectNothingLeft(ctx.backend(), client, name);
    } finally {
      await replica.resume();
    }
  });

  it('with retries, a replica that comes back during a later wait lets the acquisition through', async () => {
    const client = await ctx.client({ replicaSync: { timeout: 200, retries: 50 } });
    const name = ctx.uniqueName('retries');
    const replica = await replicaFor(ctx.backend(), name);
    const waits = await syncCalls(ctx, name, 'wait');
    await replica.pause();
    const acquiring = client.lock(name).acquire({ owner: 'late' });
    try {
      // Long enough for the first waits to come back empty.
      await new Promise((resolve) => setTimeout(resolve, 700));
    } finally {
      await replica.resume();
    }
    const held = await acquiring;
    expect(await syncCalls(ctx, name, 'wait')).toBeGreaterThan(waits + 1);
    expect(await readReplica(ctx.backend(), replica, 'HGETALL', name)).toEqual([`${client.id}:late`, '1']);
    await held.release();
  });

  describe.each(SEMAPHORES)('$kind', ({ make }) => {
    // A semaphore with `permits` set, on a client with `options`, and the replica of its master.
    const setUp = async (label: string, permits: number, options?: LockClientOptions) => {
      const client = await ctx.client(options);
      const name = ctx.uniqueName(label);
      const semaphore = make(client, name);
      await semaphore.trySetPermits(permits);
      return { client, name, semaphore, replica: await replicaFor(ctx.backend(), name) };
    };

    it('with a live replica, the replica has the free permits of each acquisition and release as soon as the call returns', async () => {
      const { name, semaphore, replica } = await setUp('permits-live', 3, { replicaSync: { timeout: 10_000 } });
      const waits = await waitsDuring(ctx, name, async () => {
        const held = await semaphore.acquire(2);
        expect(await readReplica(ctx.backend(), replica, 'GET', name)).toBe('1');
        await held.release();
        expect(await readReplica(ctx.backend(), replica, 'GET', name)).toBe('3');
      });
      expect(waits).toBe(2);
    });

    it('costs nothing when off: no WAIT is sent', async () => {
      const { name, semaphore } = await setUp('permits-off', 1);
      expect(await waitsDuring(ctx, name, async () => (await semaphore.acquire()).release())).toBe(0);
    });

    it('with the replica paused, an acquisition fails with ReplicaSyncError and gives the permits back', async () => {
      const { client, name, semaphore, replica } = await setUp('permits-paused', 2, { replicaSync: { timeout: 300 } });
      await whilePaused(replica, async () => {
        await expect(semaphore.acquire(2)).rejects.toMatchObject({
          name: 'ReplicaSyncError',
          operation: 'acquire',
          acknowledged: 0,
          required: 1,
          lockName: name,
        });
        await expect(semaphore.tryAcquire(1)).rejects.toBeInstanceOf(ReplicaSyncError);
        expect(await semaphore.availablePermits()).toBe(2);
      });
      expect(client.activity()).toMatchObject({ channels: [], renewing: 0 });
    });

    it('closing the client while an acquisition waits for its replica gives the permits back', async () => {
      const { client, name, semaphore, replica } = await setUp('permits-closed', 1, {
        replicaSync: { timeout: 5_000 },
      });
      // Wrapped: an async function returning the promise itself would wait for it while paused.
      const { acquiring } = await whilePaused(replica, async () => {
        const result = semaphore.acquire().catch((e: unknown) => e);
        // Taken on the master, and waiting in WAIT for the paused replica.
        await expect.poll(() => ctx.backend().command(['GET', name], name), { timeout: 5_000 }).toBe('0');
        await client.close();
        return { acquiring: result };
      });
      // The replica acknowledges once resumed: the wait succeeds, but nobody would hold the permits.
      expect(await acquiring).toBeInstanceOf(ClientClosedError);
      await expect.poll(() => ctx.backend().command(['GET', name], name), { timeout: 5_000 }).toBe('1');
    });

    it('with the replica paused, a release fails with ReplicaSyncError, and the permits are free on the master', async () => {
      const { semaphore, replica } = await setUp('permits-paused-release', 2, {
        replicaSync: { timeout: 300 },
      });
      const held = await semaphore.acquire(2);
      await whilePaused(replica, async () => {
        await expect(held.release()).rejects.toMatchObject({ name: 'ReplicaSyncError', operation: 'release' });
        expect(await semaphore.availablePermits()).toBe(2);
      });
    });
  });

  describe('CountDownLatch', () => {
    it('with a live replica, the replica has the count each trySetCount and countDown wrote as soon as the call returns', async () => {
      const client = await ctx.client({ replicaSync: { timeout: 10_000 } });
      const name = ctx.uniqueName('latch-live');
      const replica = await replicaFor(ctx.backend(), name);
      const latch = new CountDownLatch(client, name);
      const waits = await waitsDuring(ctx, name, async () => {
        await latch.trySetCount(2);
        expect(await readReplica(ctx.backend(), replica, 'GET', name)).toBe('2');
        await latch.countDown();
        expect(await readReplica(ctx.backend(), replica, 'GET', name)).toBe('1');
        await latch.countDown();
        expect(await readReplica(ctx.backend(), replica, 'EXISTS', name)).toBe(0);
      });
      expect(waits).toBe(3);
    });

    it('costs nothing when off: no WAIT is sent', async () => {
      const client = await ctx.client();
      const name = ctx.uniqueName('latch-off');
      const latch = new CountDownLatch(client, name);
      const waits = await waitsDuring(ctx, name, async () => {
        await latch.trySetCount(1);
        await latch.countDown();
      });
      expect(waits).toBe(0);
    });

    it('with the replica paused, trySetCount and countDown fail with ReplicaSyncError, and the count stands on the master', async () => {
      const client = await ctx.client({ replicaSync: { timeout: 300 } });
      const name = ctx.uniqueName('latch-paused');
      const replica = await replicaFor(ctx.backend(), name);
      const latch = new CountDownLatch(client, name);
      await whilePaused(replica, async () => {
        await expect(latch.trySetCount(2)).rejects.toMatchObject({ name: 'ReplicaSyncError', operation: 'setCount' });
        expect(await latch.getCount()).toBe(2);
        await expect(latch.countDown()).rejects.toMatchObject({ name: 'ReplicaSyncError', operation: 'countDown' });
        expect(await latch.getCount()).toBe(1);
      });
    });
  });

  // Last: the replica stays dead.
  it('with the replica killed, acquire fails with ReplicaSyncError and leaves no lock behind', async () => {
    const client = await ctx.client({ replicaSync: { timeout: 300 } });
    const name = ctx.uniqueName('killed');
    await (await replicaFor(ctx.backend(), name)).kill();
    await expect(client.lock(name).acquire()).rejects.toMatchObject({
      name: 'ReplicaSyncError',
      acknowledged: 0,
      required: 1,
    });
    await expectNothingLeft(ctx.backend(), client, name);
  });
});
