// The servers the adapter's own tests run on, and raw access to them for checks and faults.
import { startCluster, startStandalone, type ClusterHandle, type RedisNode } from '@deadbolt/test-harness';

/** A standalone server or a cluster started by the harness. */
export interface TestTopology {
  readonly name: 'standalone' | 'cluster';
  /** What a client connects to. */
  readonly target: RedisNode | ClusterHandle;
  /** The node that owns `key` (the only node of a standalone server). */
  ownerOf(key: string): Promise<RedisNode>;
  /** Sorted union over running nodes of PUBSUB CHANNELS and SHARDCHANNELS matching `pattern`. */
  channels(pattern: string): Promise<string[]>;
  /** Kills the connections named `name` on every running node; returns how many. */
  killClients(name: string): Promise<number>;
  /** How many connections named `name` the running nodes have. */
  countClients(name: string): Promise<number>;
  stop(): Promise<void>;
}

/** Starts a standalone server or a 3-master cluster. */
export async function startTopology(name: 'standalone' | 'cluster', replicas: 0 | 1 = 0): Promise<TestTopology> {
  const cluster = name === 'cluster' ? await startCluster({ replicas }) : undefined;
  const standalone = cluster ? undefined : await startStandalone();
  const running = () => (cluster ? cluster.nodes : [standalone!]).filter((node) => node.running);
  return {
    name,
    target: cluster ?? standalone!,
    ownerOf: async (key) => (cluster ? cluster.masterForKey(key) : standalone!),
    async channels(pattern) {
      const found = new Set<string>();
      for (const node of running()) {
        for (const kind of ['CHANNELS', 'SHARDCHANNELS']) {
          const reply = await node.command('PUBSUB', kind, pattern);
          if (Array.isArray(reply)) for (const channel of reply) found.add(String(channel));
        }
      }
      return [...found].sort();
    },
    async killClients(clientName) {
      let killed = 0;
      for (const node of running()) killed += await node.killClientByName(clientName);
      return killed;
    },
    async countClients(clientName) {
      let count = 0;
      for (const node of running()) {
        const list = String(await node.command('CLIENT', 'LIST'));
        count += list.split('\n').filter((line) => line.includes(` name=${clientName} `)).length;
      }
      return count;
    },
    stop: () => (cluster ? cluster.stop() : standalone!.stop()),
  };
}
