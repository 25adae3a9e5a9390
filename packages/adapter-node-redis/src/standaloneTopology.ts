import type { NodeRedisClient } from './clientTypes.js';
import { NodeRedisLink } from './NodeRedisLink.js';
import { subscriberOptions } from './subscriberOptions.js';
import type { Topology } from '@deadbolt/core/adapter';

/** Every channel on one duplicate of the user's connection. */
export function standaloneTopology(client: NodeRedisClient, subscriberName: string): Topology {
  return {
    isCluster: false,
    nodeFor: () => Promise.resolve('server'),
    open: (_address, events) =>
      Promise.resolve(new NodeRedisLink(client.duplicate(subscriberOptions(subscriberName)), events)),
    // Nothing to reload for a single server.
    refresh: () => Promise.resolve(),
    watch: () => () => undefined,
  };
}
