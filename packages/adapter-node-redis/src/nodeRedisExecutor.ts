import { resolveAdapterOptions, SubscriberRouter, type AdapterOptions, type Executor, type ScriptArgument } from '@deadbolt/core';
import type { NodeRedisClient, NodeRedisCluster, NodeRedisScriptOptions } from './clientTypes.js';
import { clusterTopology } from './clusterTopology.js';
import { standaloneTopology } from './standaloneTopology.js';

/** Options of {@link nodeRedisExecutor}: those every adapter takes. */
export type NodeRedisExecutorOptions = AdapterOptions;

/**
 * Creates the Deadbolt executor over a node-redis client the application already has and has
 * connected: from `createClient()` or `createCluster()` of redis 5 or 6, with any modules,
 * scripts, RESP version or type mapping.
 *
 * Scripts run on that client; a cluster client routes them by their first key. Pub/sub runs on
 * connections the executor opens itself, lazily on the first subscription, as duplicates named
 * {@link NodeRedisExecutorOptions.subscriberName}: one for a standalone client, one per master
 * that owns a subscribed channel's slot in a cluster. They restore their subscriptions after a
 * reconnect and follow a channel to its slot's new owner after a failover or a slot migration.
 * {@link Executor.close} closes them and never the client.
 *
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect();
 * const executor = nodeRedisExecutor(client);
 * // ... hand the executor to a Deadbolt lock client ...
 * await executor.close(); // the subscriber connections; `client` stays open
 * ```
 */
export function nodeRedisExecutor(client: NodeRedisClient | NodeRedisCluster, options: NodeRedisExecutorOptions = {}): Executor {
  const { subscriberName } = resolveAdapterOptions(options);
  const isCluster = 'nodeClient' in client;
  const router = new SubscriberRouter(isCluster ? clusterTopology(client, subscriberName) : standaloneTopology(client, subscriberName));
  return {
    isCluster,
    evalsha: (sha, keys, args) => client.evalSha(sha, scriptOptions(keys, args)),
    eval: (source, keys, args) => client.eval(source, scriptOptions(keys, args)),
    subscribe: (channel, sharded) => router.subscribe(channel, sharded),
    unsubscribe: (channel, sharded) => router.unsubscribe(channel, sharded),
    listen: (listener) => router.listen(listener),
    close: () => router.close(),
  };
}

// node-redis sends only strings and buffers; numbers would be rejected.
function scriptOptions(keys: readonly string[], args: readonly ScriptArgument[]): NodeRedisScriptOptions {
  return { keys: [...keys], arguments: args.map(String) };
}
