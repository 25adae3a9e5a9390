// ioredis clients, of either major, for each topology.
import { Cluster, Redis } from 'ioredis';
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis5';
import {
  copyAddressMap,
  masterNameOf,
  type ConnectionSpec,
  type DriverMajor,
  type NodeAddress,
  type RespVersion,
} from './ConnectionSpec.js';
import type { DriverClient } from './driverClient.js';

/**
 * ioredis's client classes by major. The adapter is typed against the default major; the other
 * one's classes differ in private parts and type parameters only, hence the casts (the adapter's
 * test/acceptedClients.ts checks at compile time what it accepts).
 */
const IOREDIS = {
  5: { Redis: Redis5 as unknown as typeof Redis, Cluster: Cluster5 as unknown as typeof Cluster },
  6: { Redis, Cluster },
} as const;

/** An ioredis client for the spec: a `Cluster`, or a `Redis` to the standalone server or through the Sentinels. */
export async function connectIoredis(
  spec: ConnectionSpec,
  first: NodeAddress,
  resp: RespVersion | undefined,
  major: DriverMajor,
): Promise<DriverClient> {
  // Applications must listen for 'error'; tests kill nodes.
  const ignore = () => undefined;
  const ioredis = IOREDIS[major];
  const protocol = resp === undefined ? {} : { protocol: resp };
  const sentinels =
    spec.topology === 'sentinel'
      ? { sentinels: spec.nodes.map((node) => ({ ...node })), name: masterNameOf(spec) }
      : first;
  const client =
    spec.topology === 'cluster'
      ? new ioredis.Cluster(
          spec.nodes.map((node) => ({ ...node })),
          { lazyConnect: true, redisOptions: protocol, ...ioredisProxyOptions(spec) },
        )
      : new ioredis.Redis({ ...sentinels, ...protocol, lazyConnect: true });
  client.on('error', ignore);
  await client.connect();
  return {
    kind: 'ioredis',
    client,
    ping: () => client.ping(),
    close: () => client.quit().then(ignore, () => client.disconnect()),
  };
}

/**
 * ioredis `Cluster` options for a spec whose nodes are reached through fault proxies: `natMap`, so
 * that the nodes the cluster announces are reached through their proxies, and
 * `clusterNodeRetryStrategy` (ioredis's standalone default), so that a node connection a proxy
 * cut or partitioned reconnects and re-sends its unanswered commands as a standalone client does.
 * Without it ioredis drops the node, rejects those commands with "Connection is closed." and
 * retries them through the cluster (other nodes, MOVED) every 100 ms, 16 times at most, then
 * fails them: a re-send that can only come within about a second.
 */
function ioredisProxyOptions(spec: ConnectionSpec): {
  natMap?: Record<string, { host: string; port: number }>;
  clusterNodeRetryStrategy?: (times: number) => number;
} {
  if (spec.addressMap === undefined) return {};
  return { natMap: copyAddressMap(spec.addressMap), clusterNodeRetryStrategy: (times) => Math.min(times * 50, 2000) };
}
