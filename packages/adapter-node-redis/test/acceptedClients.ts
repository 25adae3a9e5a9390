// Compile-time check, run by `tsc --noEmit`: every kind of node-redis client of both supported
// majors is accepted without casts. Nothing here connects.
import { createClient, createCluster, createSentinel } from 'redis';
import {
  createClient as createClient5,
  createCluster as createCluster5,
  createSentinel as createSentinel5,
} from 'redis5';
import { nodeRedisExecutor } from '../src/index.js';

export function acceptsEveryClient(): void {
  nodeRedisExecutor(createClient());
  nodeRedisExecutor(createClient({ RESP: 2 }));
  nodeRedisExecutor(createClient({ RESP: 3 }));
  nodeRedisExecutor(createClient({ scripts: {}, modules: {}, functions: {} }));
  nodeRedisExecutor(createClient().withTypeMapping({}));
  nodeRedisExecutor(createCluster({ rootNodes: [] }));
  nodeRedisExecutor(createCluster({ rootNodes: [], RESP: 2 }));
  nodeRedisExecutor(createCluster({ rootNodes: [], RESP: 3 }));
  nodeRedisExecutor(createClient5());
  nodeRedisExecutor(createClient5({ RESP: 3 }));
  nodeRedisExecutor(createCluster5({ rootNodes: [] }));
  nodeRedisExecutor(createCluster5({ rootNodes: [], RESP: 3 }), { subscriberName: 'x' });
  nodeRedisExecutor(createSentinel({ name: 'm', sentinelRootNodes: [] }));
  nodeRedisExecutor(createSentinel({ name: 'm', sentinelRootNodes: [], RESP: 3 }));
  nodeRedisExecutor(createSentinel5({ name: 'm', sentinelRootNodes: [] }));
  nodeRedisExecutor(createSentinel5({ name: 'm', sentinelRootNodes: [], RESP: 3 }));
}
