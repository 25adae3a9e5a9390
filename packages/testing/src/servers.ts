/**
 * The parts `startTestRedis` and `startTestRedisCluster` are built from, for tests that need
 * more than a server and a cluster: `redis-server` processes of their own (with their own
 * arguments and config, killed on exit and reaped by pid), a cluster with replicas, a raw RESP
 * connection that needs no driver, and polling until a condition holds. Deadbolt's own test
 * harness builds its other topologies (Sentinel, replicas, TLS) on them.
 *
 * @packageDocumentation
 */
export type { RedisNode } from './node/redis-node.js';
export { startProcessNode, type ProcessNodeOptions } from './node/process-node.js';
export {
  startStandalone,
  useStandalone,
  type StandaloneOptions,
  type StandaloneTarget,
} from './topology/standalone.js';
export { startAll, stopAll, stopOnFailure } from './topology/start-nodes.js';
export { startCluster, type ClusterHandle, type ClusterOptions } from './cluster/cluster.js';
export {
  RespConnection,
  RedisTimeoutError,
  sendCommand,
  type RedisAddress,
  type RespConnectionOptions,
} from './resp/connection.js';
export { RespError, type RespArgument, type RespValue } from './resp/protocol.js';
export { asArray, asText, parseInfo } from './resp/text.js';
export { RedisUnavailableError } from './unavailable.js';
export { BIN_DIR_ENV, requireExecutable } from './server/binaries.js';
export {
  SERVER_ENV,
  SERVERS_DIR_ENV,
  ServerBuildError,
  selectedServerBuild,
  type ServerBuild,
} from './server/built-servers.js';
export { pickFreePort } from './server/ports.js';
export { RUN_DIR_ENV } from './server/registry.js';
export { killRunDirSync, reapRunDir, type ReapResult } from './server/reap.js';
export { isAlive, processState } from './server/liveness.js';
export { waitFor, sleep, type WaitOptions } from './wait.js';
