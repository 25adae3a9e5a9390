// node-redis clients, of either major, for each topology.
import { createClient, createCluster, createSentinel } from 'redis';
import {
  createClient as createClient5,
  createCluster as createCluster5,
  createSentinel as createSentinel5,
} from 'redis5';
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
 * node-redis's client factories by major. The adapter is typed against the default major; the
 * other one's clients differ in private parts and type parameters only, hence the casts (the
 * adapter's test/acceptedClients.ts checks at compile time what it accepts).
 */
const NODE_REDIS = {
  5: {
    createClient: createClient5 as unknown as typeof createClient,
    createCluster: createCluster5 as unknown as typeof createCluster,
    createSentinel: createSentinel5 as unknown as typeof createSentinel,
  },
  6: { createClient, createCluster, createSentinel },
} as const;

/** A node-redis client for the spec: a cluster, a Sentinel client, or a client of the standalone server. */
export async function connectNodeRedis(
  spec: ConnectionSpec,
  first: NodeAddress,
  resp: RespVersion | undefined,
  major: DriverMajor,
): Promise<DriverClient> {
  // Applications must listen for 'error' (node-redis throws without a listener); tests kill nodes.
  const ignore = () => undefined;
  const nodeRedis = NODE_REDIS[major];
  const protocol = resp === undefined ? {} : { RESP: resp };
  if (spec.topology === 'cluster') {
    const client = nodeRedis.createCluster({
      rootNodes: spec.nodes.map((node) => ({ socket: { ...node } })),
      ...protocol,
      ...(spec.addressMap === undefined ? {} : { nodeAddressMap: copyAddressMap(spec.addressMap) }),
    });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'node-redis',
      client,
      ping: () => client.sendCommand(undefined, true, ['PING']),
      close: () => client.close().catch(() => client.destroy()),
    };
  }
  if (spec.topology === 'sentinel') {
    const client = nodeRedis.createSentinel({
      name: masterNameOf(spec),
      sentinelRootNodes: spec.nodes.map((node) => ({ ...node })),
      ...protocol,
    });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'node-redis',
      client,
      ping: () => client.sendCommand(false, ['PING']),
      close: () => client.close().catch(() => client.destroy()),
    };
  }
  const client = nodeRedis.createClient({ socket: { ...first }, ...protocol });
  client.on('error', ignore);
  await client.connect();
  return {
    kind: 'node-redis',
    client,
    ping: () => client.ping(),
    close: () => client.close().catch(() => client.destroy()),
  };
}
