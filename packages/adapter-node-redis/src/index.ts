export { nodeRedisExecutor } from './nodeRedisExecutor.js';
export type { NodeRedisExecutorOptions } from './nodeRedisExecutor.js';
export type {
  NodeRedisClient,
  NodeRedisCluster,
  NodeRedisClusterNode,
  NodeRedisConnection,
  NodeRedisPubSubListener,
  NodeRedisScriptOptions,
  NodeRedisSentinel,
  NodeRedisSentinelEvent,
  NodeRedisSentinelNode,
  NodeRedisSubscriberClient,
} from './clientTypes.js';
