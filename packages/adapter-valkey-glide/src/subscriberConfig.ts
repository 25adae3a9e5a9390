import { Decoder, ProtocolVersion, type PubSubMsg } from '@valkey/valkey-glide';
import type { ValkeyGlideConnection } from './clientTypes.js';

/**
 * How often GLIDE compares a subscriber's subscriptions with the server's and repairs them (after a
 * reconnect, or after a slot moved in a cluster), unless the application's configuration says.
 * GLIDE's own default is several seconds: a waiter would sleep that long after a failover.
 */
export const RECONCILIATION_MS = 250;

/**
 * The configuration of a subscriber client: the application's, named `name`, connected at once,
 * speaking RESP3 (GLIDE delivers pub/sub messages over RESP3 only) and decoding replies and
 * messages as strings, with `onMessage` as the message callback and no subscription yet.
 */
export function subscriberConfig<C extends ValkeyGlideConnection>(
  connection: C,
  name: string,
  onMessage: (message: PubSubMsg) => void,
): C {
  return {
    ...connection,
    clientName: name,
    protocol: ProtocolVersion.RESP3,
    defaultDecoder: Decoder.String,
    lazyConnect: false,
    pubsubSubscriptions: { channelsAndPatterns: {}, callback: onMessage },
    advancedConfiguration: { pubsubReconciliationIntervalMs: RECONCILIATION_MS, ...connection.advancedConfiguration },
  };
}
