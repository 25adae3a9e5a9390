import { hashSlot } from '@deadbolt/core/adapter';
import { startProcessNode } from '../node/process-node.js';
import type { RedisNode } from '../node/redis-node.js';
import { parseInfo } from '../resp/text.js';
import { requireExecutable } from '../server/binaries.js';
import { startAll, stopAll, stopOnFailure } from '../topology/start-nodes.js';
import { waitFor } from '../wait.js';
import { describeClusterViews, observeHealthyCluster, readSlots } from './health.js';
import { joinCluster } from './join.js';

const MASTER_COUNT = 3;
const HEALTHY_TIMEOUT_MS = 30_000;

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** Replicas per master: 0 (default) or 1. `failover()` needs 1. */
  readonly replicas?: 0 | 1;
  /**
   * `cluster-node-timeout`: how long a node may be unreachable before it is failed over.
   * Default 2000 ms, short so that tests of automatic failover stay quick.
   */
  readonly nodeTimeoutMs?: number;
  /** More redis-server arguments for every node. */
  readonly args?: readonly string[];
  /**
   * More redis-server arguments for one node, asked once per node before it starts, for what
   * differs between nodes (each node's own TLS port, say). A restart reuses them.
   */
  readonly nodeArgs?: () => Promise<readonly string[]>;
}

/** A 3-master Redis Cluster, from {@link startCluster}. */
export interface ClusterHandle {
  /** Every node, masters and replicas, in start order. */
  readonly nodes: readonly RedisNode[];
  /**
   * The masters, ordered by the first slot they serve. Roles are as of the last start,
   * `failover()` or `waitUntilHealthy()`; an automatic failover is seen after the latter.
   */
  readonly masters: readonly RedisNode[];
  /** The nodes that are not masters (empty with `replicas: 0`). */
  readonly replicas: readonly RedisNode[];
  /** Seed addresses for a cluster client: every node. */
  readonly startupNodes: readonly { readonly host: string; readonly port: number }[];
  /** The master that owns the key's slot (hash tags honoured), asked of the cluster itself. */
  masterForKey(key: string): Promise<RedisNode>;
  /**
   * Promotes the replica of `master` with CLUSTER FAILOVER and waits until it is a master and
   * the cluster is healthy again. Resolves with the new master. Needs `replicas: 1`.
   */
  failover(master: RedisNode): Promise<RedisNode>;
  /**
   * Waits until every running node says `cluster_state:ok`, all agree on the slot map, and
   * replicas are linked; then refreshes `masters` and `replicas`. Call it after restarting
   * nodes. Default timeout 30 s.
   */
  waitUntilHealthy(timeoutMs?: number): Promise<void>;
  /** Stops every node. */
  stop(): Promise<void>;
}

/**
 * Starts 3 masters (and optionally one replica each) as cluster-enabled servers, joins them as
 * `redis-cli --cluster create` would, and resolves once the cluster is
 * healthy as {@link ClusterHandle.waitUntilHealthy} defines it, so clients see no early
 * MOVED/CLUSTERDOWN.
 */
export async function startCluster(options: ClusterOptions = {}): Promise<ClusterHandle> {
  const replicas = options.replicas ?? 0;
  requireExecutable('redis-server', 'startCluster()');
  const args = [
    '--cluster-enabled',
    'yes',
    // Relative to the node's own directory, which a restart reuses: the node keeps its identity.
    '--cluster-config-file',
    'nodes.conf',
    '--cluster-node-timeout',
    String(options.nodeTimeoutMs ?? 2000),
    // CLUSTER SLOTS lists a replica only once its replication offset is non-zero, and an idle
    // master moves it only with its replica ping, every 10 s by default.
    '--repl-ping-replica-period',
    '1',
    ...(options.args ?? []),
  ];
  const count = MASTER_COUNT * (1 + replicas);
  const startNode = async () => startProcessNode({ args: [...args, ...((await options.nodeArgs?.()) ?? [])] });
  const nodes = await startAll(Array.from({ length: count }, () => startNode));
  return stopOnFailure(nodes, async () => {
    await joinCluster(nodes.slice(0, MASTER_COUNT), nodes.slice(MASTER_COUNT));
    const cluster = new Cluster(nodes, replicas);
    await cluster.waitUntilHealthy();
    return cluster;
  });
}

class Cluster implements ClusterHandle {
  readonly startupNodes: readonly { readonly host: string; readonly port: number }[];
  masters: readonly RedisNode[] = [];
  replicas: readonly RedisNode[] = [];

  constructor(
    readonly nodes: readonly RedisNode[],
    private readonly replicasPerMaster: number,
  ) {
    this.startupNodes = nodes.map((n) => ({ host: n.host, port: n.port }));
  }

  async waitUntilHealthy(timeoutMs = HEALTHY_TIMEOUT_MS): Promise<void> {
    let ranges: Awaited<ReturnType<typeof observeHealthyCluster>> = [];
    try {
      await waitFor(
        async () => {
          ranges = await observeHealthyCluster(this.nodes);
          return true;
        },
        { timeoutMs, intervalMs: 100, description: 'the cluster is healthy' },
      );
    } catch (error) {
      // A cluster that stays down is Redis's own state: say what every node sees.
      throw new Error(`${(error as Error).message}\n${await describeClusterViews(this.nodes)}`, { cause: error });
    }
    const masterPorts = [...ranges].sort((a, b) => a.start - b.start).map((r) => r.masterPort);
    this.masters = [...new Set(masterPorts)].map((port) => this.nodeOnPort(port));
    this.replicas = this.nodes.filter((n) => !this.masters.includes(n));
  }

  async masterForKey(key: string): Promise<RedisNode> {
    const slot = hashSlot(key);
    let lastError: unknown;
    // Any running node can answer; a killed one cannot.
    for (const node of this.nodes.filter((n) => n.running)) {
      try {
        const range = (await readSlots(node)).find((r) => r.start <= slot && slot <= r.end);
        if (range !== undefined) return this.nodeOnPort(range.masterPort);
        lastError = new Error(`no node serves slot ${slot}`);
      } catch (error) {
        lastError = error;
      }
    }
    throw new Error(`cannot find the master of key ${JSON.stringify(key)} (slot ${slot})`, { cause: lastError });
  }

  async failover(master: RedisNode): Promise<RedisNode> {
    if (this.replicasPerMaster === 0) throw new Error('failover() needs a cluster started with { replicas: 1 }');
    const replica = await this.replicaOf(master);
    await replica.command('CLUSTER', 'FAILOVER');
    await waitFor(async () => parseInfo(await replica.command('INFO', 'replication')).get('role') === 'master', {
      timeoutMs: HEALTHY_TIMEOUT_MS,
      description: `replica ${replica.port} has taken over from ${master.port}`,
    });
    await this.waitUntilHealthy();
    return replica;
  }

  stop(): Promise<void> {
    return stopAll(this.nodes);
  }

  private async replicaOf(master: RedisNode): Promise<RedisNode> {
    for (const node of this.nodes) {
      if (node === master || !node.running) continue;
      const info = parseInfo(await node.command('INFO', 'replication'));
      if (info.get('role') === 'slave' && Number(info.get('master_port')) === master.port) return node;
    }
    throw new Error(`no running replica of master ${master.port}`);
  }

  private nodeOnPort(port: number): RedisNode {
    const node = this.nodes.find((n) => n.port === port);
    if (node === undefined) throw new Error(`port ${port} is in the slot map but is not one of this cluster's nodes`);
    return node;
  }
}
