import { hashSlot } from '@deadbolt/core/adapter';
import type { NodeRedisClient, NodeRedisCluster, NodeRedisClusterNode } from './clientTypes.js';

/** The master owning `key`'s slot in the cluster client's slot map; `undefined` before it knows. */
export function slotMaster(cluster: NodeRedisCluster, key: string): NodeRedisClusterNode | undefined {
  return cluster.slots[hashSlot(key)]?.master;
}

/**
 * The cluster client's own client for the master owning `key`'s slot: the one it runs commands
 * routed by `key` on. Sending on it directly bypasses node-redis's request policies, which would
 * send a keyless command such as WAIT to every shard.
 */
export async function slotClient(cluster: NodeRedisCluster, key: string): Promise<NodeRedisClient> {
  const master = slotMaster(cluster, key);
  if (master === undefined)
    throw new Error(`No cluster node serves the slot of ${key}; is the cluster client connected?`);
  return cluster.nodeClient(master);
}
