import type { Topology } from '@deadbolt/core/kit';
import type { GlideClusterClient, GlideClusterClientConfiguration } from '@valkey/valkey-glide';
import { openSubscriber } from './openSubscriber.js';

/**
 * Every channel on one subscriber `GlideClusterClient`. Unlike ioredis and node-redis, GLIDE's
 * cluster pub/sub is used as it is: it subscribes each channel (classic or sharded) on the node
 * that serves its slot and moves it when the slot moves, and the link (GlideLink) sees when a
 * channel is gone and when it is back. So for the router the cluster is one node: it never
 * reroutes channels itself.
 */
export function clusterTopology(client: GlideClusterClient, connection: GlideClusterClientConfiguration, subscriberName: string): Topology {
  return {
    isCluster: false,
    nodeFor: () => Promise.resolve('cluster'),
    open: (_address, events) => openSubscriber(client, connection, true, subscriberName, events),
    // GLIDE follows the cluster's slot map by itself.
    refresh: () => Promise.resolve(),
    watch: () => () => undefined,
  };
}
