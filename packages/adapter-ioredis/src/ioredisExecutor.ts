import { InvalidArgumentError, type Executor } from '@deadbolt/core';
import { checkMethods, resolveAdapterOptions, SubscriberRouter, type AdapterOptions } from '@deadbolt/core/adapter';
import type { Cluster, Redis } from 'ioredis';
import { slotConnection } from './clusterSlots.js';
import { clusterTopology } from './clusterTopology.js';
import { standaloneTopology } from './standaloneTopology.js';

/** Options of {@link ioredisExecutor}: those every adapter takes. */
export type IoredisExecutorOptions = AdapterOptions;

/**
 * Creates the Deadbolt executor over an ioredis client the application already has: a `Redis`
 * (standalone or Sentinel) or a `Cluster`, from ioredis 5 or 6, over RESP2 or RESP3.
 *
 * Scripts and plain commands run on that client; in a cluster ioredis routes scripts by their
 * first key, and the executor sends a command to the connection a script with the same key used.
 * Pub/sub runs on connections the executor opens itself, lazily on the first subscription, as
 * duplicates of the client named {@link IoredisExecutorOptions.subscriberName}: one for a
 * standalone client, one per master that owns a subscribed channel's slot in a cluster. They
 * restore their subscriptions after a reconnect and follow a channel to its slot's new owner
 * after a failover or a slot migration. {@link Executor.close} closes them and never the client.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { LockClient } from '@deadbolt/core';
 * import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
 *
 * const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
 * const locks = new LockClient(ioredisExecutor(redis));
 * // ...
 * await locks.close(); // closes what Deadbolt opened; your `redis` stays open
 * await redis.quit();
 * ```
 */
export function ioredisExecutor(client: Redis | Cluster, options: IoredisExecutorOptions = {}): Executor {
  checkMethods(client, 'client', ['evalsha', 'eval', 'duplicate'], 'an ioredis Redis or Cluster client');
  const { subscriberName } = resolveAdapterOptions(options);
  const keyPrefix = client.isCluster
    ? ((client as Cluster).options.keyPrefix ?? (client as Cluster).options.redisOptions?.keyPrefix)
    : (client as Redis).options.keyPrefix;
  // ioredis would prefix the lock keys but not the channels: releases would never reach waiters,
  // and a Redisson service would not see the same keys.
  if (keyPrefix)
    throw new InvalidArgumentError(
      'client',
      `a client with keyPrefix "${keyPrefix}" is not supported; put the prefix in the lock names instead`,
    );
  const router = new SubscriberRouter(
    client.isCluster
      ? clusterTopology(client as Cluster, subscriberName)
      : standaloneTopology(client as Redis, subscriberName),
  );
  // Both Redis and Cluster have evalsha/eval, but TypeScript cannot call through the union of
  // their overloads; the commands are the same on either.
  const commands = client as Redis;
  return {
    isCluster: client.isCluster,
    evalsha: (sha, keys, args) => commands.evalsha(sha, keys.length, ...keys, ...args),
    eval: (source, keys, args) => commands.eval(source, keys.length, ...keys, ...args),
    // ioredis would send a keyless command (WAIT) to any node; the slot's own connection is the
    // one the key's scripts ran on.
    command: async (key, [name, ...args]) =>
      (client.isCluster ? await slotConnection(client as Cluster, key) : (client as Redis)).call(name, ...args),
    subscribe: (channel, sharded) => router.subscribe(channel, sharded),
    unsubscribe: (channel, sharded) => router.unsubscribe(channel, sharded),
    listen: (listener) => router.listen(listener),
    close: () => router.close(),
  };
}
