import type { Topology } from '@deadbolt/core/adapter';
import type { ValkeyGlideClient, ValkeyGlideConnection } from './clientTypes.js';
import { openSubscriber } from './openSubscriber.js';

/**
 * Every channel on one subscriber client of the application client's class: a `GlideClient` for a
 * standalone server, a `GlideClusterClient` for a cluster. Unlike ioredis's and node-redis's,
 * GLIDE's cluster pub/sub is used as it is: it subscribes each channel (classic or sharded) on the
 * node that serves its slot and moves it when the slot moves, and the link (GlideLink) sees when a
 * channel is gone and when it is back. So for the router there is one node either way, and it
 * never reroutes a channel itself.
 */
export function subscriberTopology(
  client: ValkeyGlideClient,
  connection: ValkeyGlideConnection,
  cluster: boolean,
  subscriberName: string,
): Topology {
  return {
    isCluster: false,
    nodeFor: () => Promise.resolve(cluster ? 'cluster' : 'server'),
    open: (_address, events) => openSubscriber(client, connection, cluster, subscriberName, events),
    // GLIDE follows the cluster's slot map by itself; a single server has none.
    refresh: () => Promise.resolve(),
    watch: () => () => undefined,
  };
}
