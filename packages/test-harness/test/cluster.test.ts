import { hashSlot } from '@deadbolt/core/adapter';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseInfo, startCluster, waitFor, type ClusterHandle } from '../src/index.js';

describe('startCluster (3 masters)', () => {
  let cluster: ClusterHandle;

  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await cluster.stop();
  });

  it('is healthy on every node, and they agree on the slot map', async () => {
    expect(cluster.nodes).toHaveLength(3);
    expect(cluster.masters).toHaveLength(3);
    expect(cluster.replicas).toHaveLength(0);
    expect(cluster.startupNodes).toEqual(cluster.nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
    const maps = new Set<string>();
    for (const node of cluster.nodes) {
      expect(node.port).toBeLessThanOrEqual(55_535);
      expect(parseInfo(await node.command('CLUSTER', 'INFO')).get('cluster_state')).toBe('ok');
      maps.add(JSON.stringify(await node.command('CLUSTER', 'SLOTS')));
    }
    expect(maps.size).toBe(1);
  });

  it("computes slots as the server does (core's hashSlot), and finds the master that owns a key", async () => {
    const node = cluster.nodes[0];
    for (const key of ['foo', 'bar', '{user:1}:a', 'x{}y', 'lock:{order-42}', 'ключ', '{a}{b}']) {
      expect(hashSlot(key)).toBe(await node?.command('CLUSTER', 'KEYSLOT', key));
      const master = await cluster.masterForKey(key);
      // The owner accepts the write; any other master would answer MOVED.
      expect(await master.command('SET', key, '1')).toBe('OK');
    }
  });

  it('restarts a master with its cluster identity and without its data', async () => {
    const master = await cluster.masterForKey('survives?');
    const id = await master.command('CLUSTER', 'MYID');
    await master.command('SET', 'survives?', 'no');
    await master.restart();
    expect(await master.command('CLUSTER', 'MYID')).toBe(id);
    await cluster.waitUntilHealthy();
    expect(cluster.masters).toContain(master);
    expect(await master.command('GET', 'survives?')).toBeNull();
  });

  it('a cluster that stays down fails waitUntilHealthy with what every node sees', async () => {
    const master = await cluster.masterForKey('down');
    const others = cluster.nodes.filter((node) => node !== master);
    await master.kill();
    try {
      // Without a replica, the master's slots stay unserved: the others soon say so.
      await waitFor(
        async () => parseInfo(await others[0]!.command('CLUSTER', 'INFO')).get('cluster_state') === 'fail',
        {
          timeoutMs: 20_000,
          description: 'the cluster is down',
        },
      );
      const error: unknown = await cluster.waitUntilHealthy(300).catch((e: unknown) => e);
      const { message } = error as Error;
      expect(message).toMatch(
        /^timed out after 300 ms waiting until the cluster is healthy \(last error: node \d+ says cluster_state:fail\)\n/,
      );
      expect(message).toContain(`node ${master.port}: not running`);
      for (const node of others)
        expect(message).toMatch(new RegExp(`^node ${node.port} \\(current epoch \\d+\\) sees:$`, 'm'));
      // Their CLUSTER NODES lines: the killed master is failed.
      expect(message).toMatch(new RegExp(`127\\.0\\.0\\.1:${master.port}@\\d+ master,fail `));
    } finally {
      await master.restart();
      await cluster.waitUntilHealthy();
    }
  });
});

describe('startCluster (3 masters, 1 replica each)', () => {
  it('links every replica and fails a master over to its replica', async () => {
    const cluster = await startCluster({ replicas: 1 });
    try {
      expect(cluster.nodes).toHaveLength(6);
      expect(cluster.masters).toHaveLength(3);
      expect(cluster.replicas).toHaveLength(3);
      for (const replica of cluster.replicas) {
        const info = parseInfo(await replica.command('INFO', 'replication'));
        expect(info.get('master_link_status')).toBe('up');
      }
      for (const node of cluster.nodes) {
        expect(parseInfo(await node.command('CLUSTER', 'INFO')).get('cluster_state')).toBe('ok');
      }
      const old = await cluster.masterForKey('k');
      const promoted = await cluster.failover(old);
      expect(promoted).not.toBe(old);
      expect(await cluster.masterForKey('k')).toBe(promoted);
      expect(cluster.masters).toContain(promoted);
      expect(cluster.replicas).toContain(old);
      expect(parseInfo(await old.command('INFO', 'replication')).get('role')).toBe('slave');
    } finally {
      await cluster.stop();
    }
  });
});
