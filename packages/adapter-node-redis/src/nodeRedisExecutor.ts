import type { Executor } from '@deadbolt/core';
import { type ScriptArgument } from '@deadbolt/core/kit';
import {
  checkMethods,
  resolveAdapterOptions,
  SubscriberRouter,
  type AdapterOptions,
  type Topology,
} from '@deadbolt/core/adapter';
import type { NodeRedisClient, NodeRedisCluster, NodeRedisScriptOptions, NodeRedisSentinel } from './clientTypes.js';
import { slotClient } from './clusterSlots.js';
import { clusterTopology } from './clusterTopology.js';
import { sentinelTopology } from './sentinelTopology.js';
import { standaloneTopology } from './standaloneTopology.js';

/** Options of {@link nodeRedisExecutor}: those every adapter takes. */
export type NodeRedisExecutorOptions = AdapterOptions;

/**
 * Creates the Deadbolt executor over a node-redis client the application already has and has
 * connected: from `createClient()`, `createCluster()` or `createSentinel()` of redis 5 or 6, with
 * any modules, scripts, RESP version or type mapping.
 *
 * Scripts and plain commands run on that client; a cluster client routes scripts by their first
 * key, and the executor sends a command on the cluster's own client for the master owning its
 * key; a Sentinel client runs both on its master. Pub/sub runs on connections the executor opens
 * itself, lazily on the first subscription, as duplicates named
 * {@link NodeRedisExecutorOptions.subscriberName}: one for a standalone client, one to the current
 * master for a Sentinel client, one per master that owns a subscribed channel's slot in a
 * cluster. They restore their subscriptions after a reconnect and follow a channel to the new
 * master after a failover (a cluster's slot owner, or the master a Sentinel client moved to) or a
 * slot migration. {@link Executor.close} closes them and never the client.
 *
 * With a Sentinel client and replica sync, keep its `masterPoolSize` at 1 (the default): `WAIT`
 * counts the writes of the connection it runs on, and with a pool that may not be the one that
 * ran the lock's script.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { LockClient } from '@deadbolt/core';
 * import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
 *
 * const redis = await createClient({ url: process.env.REDIS_URL ?? 'redis://localhost:6379' }).connect();
 * const locks = new LockClient(nodeRedisExecutor(redis));
 * // ...
 * await locks.close(); // closes what Deadbolt opened; your `redis` stays open
 * await redis.close();
 * ```
 */
export function nodeRedisExecutor(
  client: NodeRedisClient | NodeRedisCluster | NodeRedisSentinel,
  options: NodeRedisExecutorOptions = {},
): Executor {
  const shape = shapeOf(client);
  const { subscriberName } = resolveAdapterOptions(options);
  const router = new SubscriberRouter(topologyOf(shape, subscriberName));
  return {
    isCluster: shape.kind === 'cluster',
    evalsha: (sha, keys, args) => client.evalSha(sha, scriptOptions(keys, args)),
    eval: (source, keys, args) => client.eval(source, scriptOptions(keys, args)),
    command: (key, args) => sendCommand(shape, key, args.map(String)),
    subscribe: (channel, sharded) => router.subscribe(channel, sharded),
    unsubscribe: (channel, sharded) => router.unsubscribe(channel, sharded),
    listen: (listener) => router.listen(listener),
    close: () => router.close(),
  };
}

/** The client, told apart by what only each kind has. */
type ClientShape =
  | { readonly kind: 'standalone'; readonly client: NodeRedisClient }
  | { readonly kind: 'cluster'; readonly client: NodeRedisCluster }
  | { readonly kind: 'sentinel'; readonly client: NodeRedisSentinel };

const EXPECTED = 'a node-redis client, cluster or Sentinel client';
const SCRIPTS = ['evalSha', 'eval'] as const;

/** Tells the kinds apart, and refuses anything that lacks what its kind needs, naming `client`. */
function shapeOf(client: NodeRedisClient | NodeRedisCluster | NodeRedisSentinel): ClientShape {
  checkMethods(client, 'client', SCRIPTS, EXPECTED);
  if ('nodeClient' in client) return { kind: 'cluster', client };
  // A Sentinel client of redis 5 has no duplicate(); the subscriber copies a master connection.
  if ('getMasterNode' in client) {
    checkMethods(client, 'client', [...SCRIPTS, '_execute', 'on', 'off'], EXPECTED);
    return { kind: 'sentinel', client };
  }
  checkMethods(client, 'client', [...SCRIPTS, 'duplicate'], EXPECTED);
  return { kind: 'standalone', client };
}

function topologyOf(shape: ClientShape, subscriberName: string): Topology {
  if (shape.kind === 'cluster') return clusterTopology(shape.client, subscriberName);
  if (shape.kind === 'sentinel') return sentinelTopology(shape.client, subscriberName);
  return standaloneTopology(shape.client, subscriberName);
}

async function sendCommand(shape: ClientShape, key: string, args: string[]): Promise<unknown> {
  if (shape.kind === 'cluster') return (await slotClient(shape.client, key)).sendCommand(args);
  // Not read-only: the master, where the lock's scripts ran.
  if (shape.kind === 'sentinel') return shape.client.sendCommand(false, args);
  return shape.client.sendCommand(args);
}

// node-redis sends only strings and buffers; numbers would be rejected.
function scriptOptions(keys: readonly string[], args: readonly ScriptArgument[]): NodeRedisScriptOptions {
  return { keys: [...keys], arguments: args.map(String) };
}
