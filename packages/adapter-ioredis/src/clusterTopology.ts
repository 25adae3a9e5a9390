import type { Cluster } from 'ioredis';
import { IoredisLink } from './IoredisLink.js';
import { refreshSlots, slotOwner } from './clusterSlots.js';
import { subscriberOptions } from './subscriberOptions.js';
import type { Topology } from '@deadbolt/core/adapter';

/**
 * Channels on connections to the master that owns their slot, read from the cluster client's own
 * slot map. ioredis's cluster pub/sub is not used: its subscriber connections report neither a
 * reconnect nor when their channels are back, which the executor contract needs.
 */
export function clusterTopology(cluster: Cluster, subscriberName: string): Topology {
  return {
    isCluster: true,
    nodeFor: (channel) => slotOwner(cluster, channel),
    // In a promise's executor, so that a failure rejects, as the router expects, rather than throws.
    open: (address, events) =>
      new Promise((resolve) => {
        // Any node's connection carries the user's credentials, TLS and protocol; only the address differs.
        const template = cluster.nodes('all')[0];
        if (!template) throw new Error('The cluster client knows no node yet; is it connected?');
        const separator = address.lastIndexOf(':');
        const host = address.slice(0, separator);
        const port = Number(address.slice(separator + 1));
        resolve(
          new IoredisLink(
            template.duplicate({ ...subscriberOptions(subscriberName), host, port, readOnly: false }),
            events,
          ),
        );
      }),
    refresh: () => refreshSlots(cluster),
    watch(onChange) {
      cluster.on('refresh', onChange);
      return () => cluster.off('refresh', onChange);
    },
  };
}
