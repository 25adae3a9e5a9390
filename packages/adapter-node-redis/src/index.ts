export { nodeRedisExecutor } from './nodeRedisExecutor.js';
export type { NodeRedisExecutorOptions } from './nodeRedisExecutor.js';
export type {
  NodeRedisClient,
  NodeRedisCluster,
  NodeRedisClusterNode,
  NodeRedisPubSubListener,
  NodeRedisScriptOptions,
  NodeRedisSubscriberClient,
} from './clientTypes.js';
