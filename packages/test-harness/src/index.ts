/**
 * `@deadbolt/test-harness`: starts and stops real redis-server topologies on free ports for
 * Deadbolt's integration tests, and injects faults into them (kill, restart, pause, killed
 * connections). Every server it starts is stopped by pid when the run ends.
 *
 * @packageDocumentation
 */
export type { RedisNode } from './node/redis-node.js';
export { startStandalone, useStandalone, type StandaloneOptions, type StandaloneTarget } from './topology/standalone.js';
export { startServers, type ServersHandle } from './topology/servers.js';
export { startReplicated, type ReplicatedHandle } from './topology/replicated.js';
export { startCluster, type ClusterHandle, type ClusterOptions } from './cluster/cluster.js';
export { SLOT_COUNT } from './cluster/health.js';
export {
  RespConnection,
  RedisTimeoutError,
  sendCommand,
  type RedisAddress,
  type RespConnectionOptions,
} from './resp/connection.js';
export { RespError, type RespArgument, type RespValue } from './resp/protocol.js';
export { parseInfo } from './resp/text.js';
export { RedisUnavailableError } from './unavailable.js';
export { hasRedisServer, BIN_DIR_ENV } from './server/binaries.js';
export { RUN_DIR_ENV } from './server/registry.js';
export { reapRunDir, type ReapResult } from './server/reap.js';
export { isAlive, processState } from './server/liveness.js';
export { waitFor, sleep, type WaitOptions } from './wait.js';
