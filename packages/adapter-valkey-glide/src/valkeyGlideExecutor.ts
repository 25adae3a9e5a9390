import { InvalidArgumentError, type Executor } from '@deadbolt/core';
import { checkOptions, type ScriptArgument } from '@deadbolt/core/kit';
import {
  checkMethods,
  resolveAdapterOptions,
  SubscriberRouter,
  type AdapterOptions,
  type CommandArguments,
} from '@deadbolt/core/adapter';
import {
  Decoder,
  type SingleNodeRoute,
  type GlideClient,
  type GlideClientConfiguration,
  type GlideClusterClient,
  type GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import type { ValkeyGlideClient, ValkeyGlideConnection } from './clientTypes.js';
import { KeyedSequence } from './KeyedSequence.js';
import { decodeReply } from './replies.js';
import { serverError } from './serverErrors.js';
import { subscriberTopology } from './subscriberTopology.js';

/** Options of {@link valkeyGlideExecutor}: those every adapter takes, and the client's configuration. */
export interface ValkeyGlideExecutorOptions extends AdapterOptions {
  /**
   * The configuration the client was created with, `GlideClient.createClient(connection)` or
   * `GlideClusterClient.createClient(connection)`. A GLIDE client can be neither duplicated nor
   * asked for its configuration, and the executor opens its subscriber client from this one: the
   * same addresses, credentials, TLS and timeouts, with its own name, RESP3 and a message callback.
   */
  readonly connection: ValkeyGlideConnection;
}

const EXPECTED = 'a Valkey GLIDE GlideClient or GlideClusterClient';

/**
 * Creates the Deadbolt executor over a Valkey GLIDE client the application already has: a
 * `GlideClient` (standalone) or a `GlideClusterClient`, from `@valkey/valkey-glide` 2.3 or later,
 * over RESP2 or RESP3, with either decoder.
 *
 * Scripts and plain commands run on that client, decoded as strings, those about one key in the
 * order they were made (GLIDE alone would not keep it); in a cluster each goes to the primary that
 * owns its first key's slot (an explicit `primarySlotKey` route), where GLIDE keeps
 * one connection per node, so a command covers the writes of that key's scripts. Server errors
 * keep the server's code at the start of the message (`NOSCRIPT ...`, `NOPERM ...`), as core
 * expects. Pub/sub runs on a client the executor opens itself, lazily on the first subscription,
 * from {@link ValkeyGlideExecutorOptions.connection}, named
 * {@link ValkeyGlideExecutorOptions.subscriberName}: a `GlideClusterClient` for a cluster, which
 * subscribes each channel where its slot lives and follows it after a failover or migration.
 * Sharded pub/sub needs a cluster: GLIDE's standalone client has none. {@link Executor.close}
 * closes that client and never the application's.
 *
 * @example
 * ```ts
 * import { GlideClient } from '@valkey/valkey-glide';
 * import { LockClient } from '@deadbolt/core';
 * import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
 *
 * const url = new URL(process.env.REDIS_URL ?? 'redis://localhost:6379');
 * const connection = { addresses: [{ host: url.hostname, port: Number(url.port || 6379) }] };
 * const glide = await GlideClient.createClient(connection);
 * const locks = new LockClient(valkeyGlideExecutor(glide, { connection }));
 * // ...
 * await locks.close(); // closes what Deadbolt opened; your `glide` stays open
 * glide.close();
 * ```
 */
export function valkeyGlideExecutor(
  client: GlideClient,
  options: ValkeyGlideExecutorOptions & { readonly connection: GlideClientConfiguration },
): Executor;
export function valkeyGlideExecutor(
  client: GlideClusterClient,
  options: ValkeyGlideExecutorOptions & { readonly connection: GlideClusterClientConfiguration },
): Executor;
export function valkeyGlideExecutor(client: ValkeyGlideClient, options: ValkeyGlideExecutorOptions): Executor;
export function valkeyGlideExecutor(client: ValkeyGlideClient, options: ValkeyGlideExecutorOptions): Executor {
  checkMethods(client, 'client', ['customCommand', 'subscribe', 'unsubscribe', 'getSubscriptions', 'close'], EXPECTED);
  const { connection, ...common } = checkOptions<ValkeyGlideExecutorOptions>(options, ['subscriberName', 'connection']);
  const { subscriberName } = resolveAdapterOptions(common);
  checkConnection(connection);
  // Only the cluster client has sharded pub/sub.
  const cluster = typeof (client as Partial<GlideClusterClient>).ssubscribe === 'function';
  const router = new SubscriberRouter(subscriberTopology(client, connection, cluster, subscriberName));
  const sequence = new KeyedSequence();
  const sendNow = (strings: string[], key: string | undefined): Promise<unknown> => {
    const reply = cluster
      ? (client as GlideClusterClient).customCommand(strings, { decoder: Decoder.String, route: primaryRoute(key) })
      : (client as GlideClient).customCommand(strings, { decoder: Decoder.String });
    return reply.then(decodeReply, (error: unknown) => {
      throw serverError(error);
    });
  };
  const send = (args: readonly ScriptArgument[], key: string | undefined): Promise<unknown> => {
    const strings = args.map(String);
    return key === undefined ? sendNow(strings, key) : sequence.run(key, () => sendNow(strings, key));
  };
  return {
    isCluster: cluster,
    evalsha: (sha, keys, args) => send(['EVALSHA', sha, keys.length, ...keys, ...args], keys[0]),
    eval: (source, keys, args) => send(['EVAL', source, keys.length, ...keys, ...args], keys[0]),
    command: (key, args: CommandArguments) => send(args, key),
    subscribe: (channel, sharded) => router.subscribe(channel, sharded),
    unsubscribe: (channel, sharded) => router.unsubscribe(channel, sharded),
    listen: (listener) => router.listen(listener),
    close: () => router.close(),
  };
}

/**
 * Where a cluster client sends a call: the primary of its key's slot; a keyless script (core's
 * server version probe) to the primary of a random slot, since GLIDE would send it to any node,
 * replicas included, and a replica that hangs would hold it up.
 */
function primaryRoute(key: string | undefined): SingleNodeRoute {
  return key === undefined
    ? { type: 'primarySlotId', id: Math.floor(Math.random() * SLOTS) }
    : { type: 'primarySlotKey', key };
}

const SLOTS = 16_384;

/** The configuration must be there, with the addresses the subscriber client connects to. */
function checkConnection(connection: unknown): asserts connection is ValkeyGlideConnection {
  const addresses = (connection as Partial<ValkeyGlideConnection> | null | undefined)?.addresses;
  if (connection === null || typeof connection !== 'object' || !Array.isArray(addresses) || addresses.length === 0) {
    throw new InvalidArgumentError(
      'options.connection',
      'expected the configuration the client was created with (`{ addresses: [...], ... }`): a GLIDE client cannot be duplicated, and the executor opens its subscriber client from it',
    );
  }
}
