// Replica sync (LockClientOptions.replicaSync) on a master with a replica: standalone, and a
// cluster whose masters each have one. Replicas are paused and killed for real.
import { ClientClosedError, ReplicaSyncError, type LockClient } from '@deadbolt/core';
import { parseInfo, type RedisNode } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { BACKENDS, type Backend } from '../src/backends/index.js';
import { syncCalls, syncCommandsWithAof } from '../src/replicaSyncCommands.js';
import { useBackendContext } from '../src/SuiteContext.js';

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

/** Nothing of a failed acquisition is left: no lock on the master, no subscription, no renewal. */
async function expectNothingLeft(backend: Backend, client: LockClient, name: string): Promise<void> {
  expect(await backend.command(['EXISTS', name], name)).toBe(0);
  expect(client.activity().channels).toEqual([]);
  expect(client.activity().renewing).toBe(0);
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
    const waits = await syncCalls(ctx, name, 'wait');
    await (await client.lock(name).acquire()).release();
    expect(await syncCalls(ctx, name, 'wait')).toBe(waits);
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
