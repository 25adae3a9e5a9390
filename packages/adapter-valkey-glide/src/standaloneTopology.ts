import type { Topology } from '@deadbolt/core/kit';
import type { GlideClient, GlideClientConfiguration } from '@valkey/valkey-glide';
import { openSubscriber } from './openSubscriber.js';

/** Every channel on one subscriber client to the application's server. */
export function standaloneTopology(client: GlideClient, connection: GlideClientConfiguration, subscriberName: string): Topology {
  return {
    isCluster: false,
    nodeFor: () => Promise.resolve('server'),
    open: (_address, events) => openSubscriber(client, connection, false, subscriberName, events),
    // Nothing to reload for a single server.
    refresh: () => Promise.resolve(),
    watch: () => () => undefined,
  };
}
