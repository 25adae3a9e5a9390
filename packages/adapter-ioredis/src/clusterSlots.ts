import type { Cluster, Redis } from 'ioredis';
import { hashSlot } from '@deadbolt/core/adapter';

/** Reloads the cluster client's slot map. */
export function refreshSlots(cluster: Cluster): Promise<void> {
  return new Promise((resolve) => cluster.refreshSlotsCache(() => resolve()));
}

/**
 * The address (`host:port`) of the master that owns `key`'s slot, from the cluster client's own
 * slot map, reloading it once when the slot is unknown.
 */
export async function slotOwner(cluster: Cluster, key: string): Promise<string> {
  const slot = hashSlot(key);
  let owner = cluster.slots[slot]?.[0];
  if (owner === undefined) {
    await refreshSlots(cluster);
    owner = cluster.slots[slot]?.[0];
  }
  if (owner === undefined)
    throw new Error(`No cluster node serves the slot of ${key}; is the cluster client connected?`);
  return owner;
}

/**
 * The cluster client's own connection to the master owning `key`'s slot: the one it runs
 * commands routed by `key` on (its connection pool is keyed by the addresses of the slot map).
 */
export async function slotConnection(cluster: Cluster, key: string): Promise<Redis> {
  const owner = await slotOwner(cluster, key);
  const connection = cluster.nodes('all').find((node) => `${node.options.host}:${node.options.port}` === owner);
  if (connection === undefined)
    throw new Error(`The cluster client has no connection to ${owner}, the owner of the slot of ${key}`);
  return connection;
}
