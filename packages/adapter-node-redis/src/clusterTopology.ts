import type { NodeRedisCluster } from './clientTypes.js';
import { slotMaster } from './clusterSlots.js';
import { NodeRedisLink } from './NodeRedisLink.js';
import { subscriberOptions } from './subscriberOptions.js';
import type { Topology } from '@deadbolt/core/adapter';

/**
 * Channels on connections to the master that owns their slot, read from the cluster client's own
 * slot map. node-redis's cluster pub/sub is not used: its subscriber connections are not told
 * apart from the cluster's other connections in its events, so a recovery could not be reported.
 */
export function clusterTopology(cluster: NodeRedisCluster, subscriberName: string): Topology {
  return {
    isCluster: true,
    nodeFor(channel) {
      const master = slotMaster(cluster, channel);
      if (master === undefined) {
        return Promise.reject(
          new Error(`No cluster node serves the slot of channel ${channel}; is the cluster client connected?`),
        );
      }
      return Promise.resolve(master.address);
    },
    async open(address, events) {
      const master = cluster.slots.find((shard) => shard.master.address === address)?.master;
      if (master === undefined) throw new Error(`${address} is no longer a master of the cluster`);
      // The cluster's own connection to the node carries the user's credentials, TLS and RESP.
      const nodeClient = await cluster.nodeClient(master);
      return new NodeRedisLink(nodeClient.duplicate(subscriberOptions(subscriberName)), events);
    },
    // node-redis offers no public way to reload the slot map; it reloads on MOVED and on node
    // failures by itself, and the router reads the map again on every recheck.
    refresh: () => Promise.resolve(),
    // node-redis announces no slot map reloads.
    watch: () => () => undefined,
  };
}
