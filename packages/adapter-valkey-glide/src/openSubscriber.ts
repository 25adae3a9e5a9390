import type { LinkEvents } from '@deadbolt/core/adapter';
import type { GlideClient, GlideString, PubSubMsg } from '@valkey/valkey-glide';
import type { ValkeyGlideClient, ValkeyGlideConnection, ValkeyGlideSubscriber } from './clientTypes.js';
import { GlideLink } from './GlideLink.js';
import { clusterEpochIfAllowed, connectionIds } from './subscriberState.js';
import { subscriberConfig } from './subscriberConfig.js';

/**
 * Opens a subscriber client of the application client's own class (so of the application's copy
 * of GLIDE) from the application's configuration, and a link over it.
 */
export async function openSubscriber(
  client: ValkeyGlideClient,
  connection: ValkeyGlideConnection,
  cluster: boolean,
  subscriberName: string,
  events: LinkEvents,
): Promise<GlideLink> {
  const onMessage = (message: PubSubMsg) => events.message(text(message.channel), text(message.message));
  // Both classes have the same static createClient(config); the cast picks one signature.
  const create = (client.constructor as typeof GlideClient).createClient.bind(client.constructor);
  const subscriber: ValkeyGlideSubscriber = await create(subscriberConfig(connection, subscriberName, onMessage));
  try {
    const [ids, epoch] = await Promise.all([
      connectionIds(subscriber, cluster),
      cluster ? clusterEpochIfAllowed(subscriber) : undefined,
    ]);
    return new GlideLink(subscriber, cluster, ids, epoch, events);
  } catch (error) {
    subscriber.close();
    throw error;
  }
}

function text(value: GlideString): string {
  return typeof value === 'string' ? value : Buffer.from(value).toString('utf8');
}
