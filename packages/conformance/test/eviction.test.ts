// The eviction policy check on real servers with `maxmemory 8mb` and `allkeys-lru`: both adapters,
// standalone and cluster. And why it exists: a flood of other keys evicts a held lock's key, and a
// second owner takes the lock the first still holds.
import { EvictionRiskError, LockClient, type Executor, type LockClientOptions } from '@deadbolt/core';
import type { RedisNode } from '@deadbolt/test-harness';
import { describe, expect, it } from 'vitest';
import { BACKENDS } from '../src/backends/index.js';
import { useBackendContext } from '../src/SuiteContext.js';

// Small, but above what a cluster node uses before it holds a key (1.7 MB on Redis 7.0): with
// less, every write evicts, the lock keys of the other tests too.
const MAXMEMORY = 8 * 1024 * 1024;
const SERVER_ARGS = ['--maxmemory', String(MAXMEMORY), '--maxmemory-policy', 'allkeys-lru'];
const FILLER = 'x'.repeat(10 * 1024);
const FLOOD_BATCH = 50;
// 80 MB of other keys at most: ten times maxmemory.
const MAX_FLOOD_BATCHES = 160;

/**
 * An executor that passes everything on and logs the raw commands (not scripts) it is asked to
 * send, but for the server clock's TIME probe, which every client sends at first use.
 */
function logging(executor: Executor): { executor: Executor; commands: string[] } {
  const commands: string[] = [];
  return {
    commands,
    executor: {
      isCluster: executor.isCluster,
      evalsha: (sha, keys, args) => executor.evalsha(sha, keys, args),
      eval: (source, keys, args) => executor.eval(source, keys, args),
      command: (key, args) => {
        if (args[0] !== 'TIME') commands.push(args.join(' '));
        return executor.command(key, args);
      },
      subscribe: (channel, sharded) => executor.subscribe(channel, sharded),
      unsubscribe: (channel, sharded) => executor.unsubscribe(channel, sharded),
      listen: (listener) => executor.listen(listener),
      close: () => executor.close(),
    },
  };
}

/** Writes other keys in `name`'s slot on `node` until `name` is evicted; resolves with how many it wrote. */
async function floodUntilEvicted(node: RedisNode, name: string): Promise<number> {
  const connection = await node.connect({ timeoutMs: 10_000 });
  try {
    for (let batch = 0; batch < MAX_FLOOD_BATCHES; batch++) {
      const writes = Array.from({ length: FLOOD_BATCH }, (_, i) =>
        connection.command('SET', `{${name}}:filler:${batch}:${i}`, FILLER),
      );
      await Promise.all(writes);
      if ((await connection.command('EXISTS', name)) === 0) return (batch + 1) * FLOOD_BATCH;
    }
    throw new Error(`${name} was not evicted by ${MAX_FLOOD_BATCHES * FLOOD_BATCH} other keys`);
  } finally {
    connection.close();
  }
}

describe.each(BACKENDS)('eviction policy on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology, { dedicated: true, serverArgs: SERVER_ARGS });

  /** A client over a logging executor, closed with the backend. */
  async function loggedClient(options?: LockClientOptions): Promise<{ client: LockClient; commands: string[] }> {
    const { executor, commands } = logging(await ctx.backend().createExecutor());
    return { client: new LockClient(executor, options), commands };
  }

  it('warn (the default): one evictionRisk event per client, at its first operation', async () => {
    const { client, commands } = await loggedClient();
    try {
      const events: unknown[] = [];
      client.on('evictionRisk', (event) => events.push(event));
      const lock = client.lock(ctx.uniqueName('warn'));
      expect(commands).toEqual([]);
      await (await lock.acquire()).release();
      await (await lock.acquire()).release();
      expect(events).toEqual([{ policy: 'allkeys-lru', maxmemory: MAXMEMORY }]);
      expect(commands).toEqual(['INFO memory']);
    } finally {
      await client.close();
    }
  });

  it('throw: the first acquire rejects with EvictionRiskError and takes nothing', async () => {
    const { client } = await loggedClient({ evictionPolicy: 'throw' });
    try {
      const name = ctx.uniqueName('throw');
      const failed = client.lock(name).acquire();
      await expect(failed).rejects.toBeInstanceOf(EvictionRiskError);
      await expect(failed).rejects.toMatchObject({ policy: 'allkeys-lru' });
      expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    } finally {
      await client.close();
    }
  });

  it('ignore: no INFO is sent and no event emitted', async () => {
    const { client, commands } = await loggedClient({ evictionPolicy: 'ignore' });
    try {
      const events: unknown[] = [];
      client.on('evictionRisk', (event) => events.push(event));
      await (await client.lock(ctx.uniqueName('ignore')).acquire()).release();
      expect(commands).toEqual([]);
      expect(events).toEqual([]);
    } finally {
      await client.close();
    }
  });

  it('a flood of other keys evicts a held lock, which a second owner then takes: the risk the event warned of', async () => {
    const [first, second] = [await ctx.client(), await ctx.client({ evictionPolicy: 'ignore' })];
    const warned: unknown[] = [];
    first.on('evictionRisk', (event) => warned.push(event));
    const name = ctx.uniqueName('evicted');
    const held = await first.lock(name).acquire();
    expect(warned).toEqual([{ policy: 'allkeys-lru', maxmemory: MAXMEMORY }]);
    const cluster = ctx.backend().cluster;
    const node = cluster === undefined ? ctx.backend().nodes[0] : await cluster.masterForKey(name);
    if (node === undefined) throw new Error('no node of the backend');
    expect(await floodUntilEvicted(node, name)).toBeGreaterThan(0);
    const twice = await second.lock(name).tryAcquire();
    expect(twice).not.toBeNull();
    expect(held.signal.aborted).toBe(false);
    await twice?.release();
  });
});
