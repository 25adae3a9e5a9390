// Driver clients of both supported ioredis majors, for the adapter's own tests.
import type { ClusterHandle, RedisNode } from '@deadbolt/test-harness';
import { Cluster as Cluster6, Redis as Redis6 } from 'ioredis';
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis5';

/** A supported ioredis major version. */
export type Major = 5 | 6;

/**
 * A connected client of the given major. The adapter is typed against the installed major (6);
 * ioredis 5's classes differ in their private parts only, hence the cast.
 */
export async function connectClient(major: Major, target: RedisNode | ClusterHandle): Promise<Redis6 | Cluster6> {
  const client =
    'startupNodes' in target
      ? new (major === 5 ? (Cluster5 as unknown as typeof Cluster6) : Cluster6)(
          target.startupNodes.map((node) => ({ host: node.host, port: node.port })),
          { lazyConnect: true },
        )
      : new (major === 5 ? (Redis5 as unknown as typeof Redis6) : Redis6)({ host: target.host, port: target.port, lazyConnect: true });
  // Tests kill nodes; an application listens for errors too.
  client.on('error', () => undefined);
  await client.connect();
  return client;
}
