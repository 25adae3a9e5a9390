// Driver clients of both supported node-redis majors, for the adapter's own tests.
import type { ClusterHandle, RedisNode } from '@deadbolt/test-harness';
import { createClient as createClient6, createCluster as createCluster6 } from 'redis';
import { createClient as createClient5, createCluster as createCluster5 } from 'redis5';
import type { NodeRedisClient, NodeRedisCluster } from '../src/index.js';

/** A supported node-redis major version. */
export type Major = 5 | 6;

/** A connected driver client, as the executor takes it, with the means to ping and close it. */
export interface TestClient {
  readonly client: NodeRedisClient | NodeRedisCluster;
  ping(): Promise<unknown>;
  close(): Promise<void>;
}

const socketOf = (node: { readonly host: string; readonly port: number }) => ({ socket: { host: node.host, port: node.port } });

/** A connected client of the given major. */
export async function connectClient(major: Major, target: RedisNode | ClusterHandle): Promise<TestClient> {
  if ('startupNodes' in target) {
    const options = { rootNodes: target.startupNodes.map(socketOf) };
    const cluster = major === 5 ? createCluster5(options) : createCluster6(options);
    // node-redis throws on an 'error' event nobody listens to; tests kill nodes.
    cluster.on('error', () => undefined);
    await cluster.connect();
    return { client: cluster, ping: () => cluster.sendCommand(undefined, true, ['PING']), close: () => cluster.close() };
  }
  const client = major === 5 ? createClient5(socketOf(target)) : createClient6(socketOf(target));
  client.on('error', () => undefined);
  await client.connect();
  return { client, ping: () => client.sendCommand(['PING']), close: () => client.close() };
}
