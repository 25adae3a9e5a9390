import { Decoder, type GlideClusterClient } from '@valkey/valkey-glide';
import type { ValkeyGlideSubscriber } from './clientTypes.js';
import { decodeReply } from './replies.js';

/** The channels a GLIDE client holds on the servers right now, by kind. */
export interface SubscribedChannels {
  readonly classic: ReadonlySet<string>;
  readonly sharded: ReadonlySet<string>;
}

// GLIDE's PubSubChannelModes: Exact and Sharded (the same numbers for both client classes).
const EXACT = 0;
const SHARDED = 2;

/** What GLIDE reports it holds (`getSubscriptions().actualSubscriptions`), without a round trip. */
export async function subscribedChannels(client: ValkeyGlideSubscriber): Promise<SubscribedChannels> {
  const { actualSubscriptions } = await client.getSubscriptions();
  const actual = actualSubscriptions as Partial<Record<number, Set<unknown>>>;
  return { classic: asStrings(actual[EXACT]), sharded: asStrings(actual[SHARDED]) };
}

/**
 * The id (`CLIENT ID`) of the client's connection to each node: one `server` for a standalone
 * client, each node's `host:port` for a cluster client (primaries and replicas alike, since GLIDE
 * opens a named connection to each). A new id means GLIDE reconnected.
 */
export async function connectionIds(
  client: ValkeyGlideSubscriber,
  cluster: boolean,
): Promise<ReadonlyMap<string, number>> {
  if (!cluster) return new Map([['server', Number(await client.customCommand(['CLIENT', 'ID']))]]);
  const reply = decodeReply(
    await (client as GlideClusterClient).customCommand(['CLIENT', 'ID'], {
      route: 'allNodes',
      decoder: Decoder.String,
    }),
  );
  const ids = new Map<string, number>();
  if (!Array.isArray(reply)) return ids;
  for (let i = 0; i + 1 < reply.length; i += 2) ids.set(String(reply[i]), Number(reply[i + 1]));
  return ids;
}

/**
 * The current epoch of the cluster a `GlideClusterClient` is on, as one node sees it
 * (`cluster_current_epoch` of `CLUSTER INFO`). Every failover raises it: an election takes a new
 * epoch. Nodes learn a new epoch by gossip, so one may still report an older one for a moment.
 * Undefined when the node did not answer it, e.g. to an ACL user without `+cluster|info` (a rule
 * written before the adapter read the epoch): the link then goes without it rather than count
 * every look as a loss. A node that is down shows in `connectionIds` anyway.
 */
export async function clusterEpochIfAllowed(client: ValkeyGlideSubscriber): Promise<number | undefined> {
  const cluster = client as GlideClusterClient;
  const info = await cluster
    .customCommand(['CLUSTER', 'INFO'], { route: 'randomNode', decoder: Decoder.String })
    .catch(() => undefined);
  // One node's reply, a string under Decoder.String.
  const epoch = typeof info === 'string' ? /^cluster_current_epoch:(\d+)/m.exec(info)?.[1] : undefined;
  return epoch === undefined ? undefined : Number(epoch);
}

function asStrings(channels: Set<unknown> | undefined): ReadonlySet<string> {
  return new Set(
    [...(channels ?? [])].map((channel) => (Buffer.isBuffer(channel) ? channel.toString('utf8') : String(channel))),
  );
}
