import type { Executor } from '@deadbolt/core';
import { checkMethods, resolveAdapterOptions, SubscriberRouter, type AdapterOptions, type ScriptArgument } from '@deadbolt/core/kit';
import type { NodeRedisClient, NodeRedisCluster, NodeRedisScriptOptions } from './clientTypes.js';
import { slotClient } from './clusterSlots.js';
import { clusterTopology } from './clusterTopology.js';
import { standaloneTopology } from './standaloneTopology.js';

/** Options of {@link nodeRedisExecutor}: those every adapter takes. */
export type NodeRedisExecutorOptions = AdapterOptions;

/**
 * Creates the Deadbolt executor over a node-redis client the application already has and has
 * connected: from `createClient()` or `createCluster()` of redis 5 or 6, with any modules,
 * scripts, RESP version or type mapping.
 *
 * Scripts and plain commands run on that client; a cluster client routes scripts by their first
 * key, and the executor sends a command on the cluster's own client for the master owning its
 * key. Pub/sub runs on connections the executor opens itself, lazily on the first subscription,
 * as duplicates named {@link NodeRedisExecutorOptions.subscriberName}: one for a standalone
 * client, one per master that owns a subscribed channel's slot in a cluster. They restore their subscriptions after a
 * reconnect and follow a channel to its slot's new owner after a failover or a slot migration.
 * {@link Executor.close} closes them and never the client.
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
export function nodeRedisExecutor(client: NodeRedisClient | NodeRedisCluster, options: NodeRedisExecutorOptions = {}): Executor {
  checkMethods(client, 'client', ['evalSha', 'eval', 'duplicate'], 'a node-redis client or cluster');
  const { subscriberName } = resolveAdapterOptions(options);
  const isCluster = 'nodeClient' in client;
  const router = new SubscriberRouter(isCluster ? clusterTopology(client, subscriberName) : standaloneTopology(client, subscriberName));
  return {
    isCluster,
    evalsha: (sha, keys, args) => client.evalSha(sha, scriptOptions(keys, args)),
    eval: (source, keys, args) => client.eval(source, scriptOptions(keys, args)),
    command: async (key, args) => (isCluster ? await slotClient(client, key) : client).sendCommand(args.map(String)),
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
