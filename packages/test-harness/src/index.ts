/**
 * `@deadbolt/test-harness`: starts and stops real redis-server topologies on free ports for
 * Deadbolt's integration tests, and injects faults into them (kill, restart, pause, killed
 * connections, and through a fault proxy: latency, requests cut after Redis ran them,
 * partitions, resets). Every server it starts is stopped by pid when the run ends.
 *
 * @packageDocumentation
 */
export type { RedisNode } from './node/redis-node.js';
export {
  startStandalone,
  useStandalone,
  type StandaloneOptions,
  type StandaloneTarget,
} from './topology/standalone.js';
export { startServers, type ServersHandle } from './topology/servers.js';
export { startReplicated, type ReplicatedHandle } from './topology/replicated.js';
export { startSentinel, type SentinelAddress, type SentinelHandle, type SentinelOptions } from './sentinel/sentinel.js';
export { startCluster, type ClusterHandle, type ClusterOptions } from './cluster/cluster.js';
export { tlsCertificates, type TlsCertificates } from './tls/certificates.js';
export {
  startTlsCluster,
  startTlsStandalone,
  type TlsAddress,
  type TlsClusterHandle,
  type TlsOptions,
  type TlsStandaloneHandle,
} from './tls/tls-topology.js';
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
export { BIN_DIR_ENV } from './server/binaries.js';
export { RUN_DIR_ENV } from './server/registry.js';
export { reapRunDir, type ReapResult } from './server/reap.js';
export { isAlive, processState } from './server/liveness.js';
export { waitFor, sleep, type WaitOptions } from './wait.js';
export { FaultProxy, startFaultProxy } from './proxy/fault-proxy.js';
export { ProxyGroup, startProxies, type AddressMap } from './proxy/proxy-group.js';
export { RequestRule, type CutOptions, type RequestMatch } from './proxy/request-rule.js';
export { RequestHold, type HeldRequest, type HoldOptions } from './proxy/request-hold.js';
export type { FaultControls, PartitionOptions, ProxyCounters, ProxyDirection } from './proxy/controls.js';
export type { Delay } from './proxy/delay.js';
export { openProxyCount, stopAllProxies } from './proxy/registry.js';
