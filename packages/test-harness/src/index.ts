/**
 * `@deadbolt/test-harness`: starts and stops real redis-server topologies on free ports for
 * Deadbolt's integration tests, and injects faults into them (kill, restart, pause, killed
 * connections, and through a fault proxy: latency, requests cut after Redis ran them,
 * partitions, resets). Every server it starts is stopped by pid when the run ends.
 *
 * @packageDocumentation
 */
// The servers, the RESP client and the run-directory cleanup are @deadbolt/testing's, where
// applications' tests get them too; they are re-exported so the repository's tests import one place.
export {
  BIN_DIR_ENV,
  isAlive,
  parseInfo,
  processState,
  reapRunDir,
  RedisTimeoutError,
  RedisUnavailableError,
  RespConnection,
  RespError,
  RUN_DIR_ENV,
  selectedServerBuild,
  sendCommand,
  SERVER_ENV,
  ServerBuildError,
  SERVERS_DIR_ENV,
  sleep,
  startCluster,
  startStandalone,
  useStandalone,
  waitFor,
  type ClusterHandle,
  type ClusterOptions,
  type ReapResult,
  type RedisAddress,
  type RedisNode,
  type RespArgument,
  type RespConnectionOptions,
  type RespValue,
  type ServerBuild,
  type StandaloneOptions,
  type StandaloneTarget,
  type WaitOptions,
} from '@deadbolt/testing/servers';
export { startServers, type ServersHandle } from './topology/servers.js';
export { startReplicated, type ReplicatedHandle } from './topology/replicated.js';
export { startSentinel, type SentinelAddress, type SentinelHandle, type SentinelOptions } from './sentinel/sentinel.js';
export { tlsCertificates, type TlsCertificates } from './tls/certificates.js';
export {
  startTlsCluster,
  startTlsStandalone,
  type TlsAddress,
  type TlsClusterHandle,
  type TlsOptions,
  type TlsStandaloneHandle,
} from './tls/tls-topology.js';
export { FaultProxy, startFaultProxy } from './proxy/fault-proxy.js';
export { ProxyGroup, startProxies, type AddressMap } from './proxy/proxy-group.js';
export { RequestRule, type CutOptions, type RequestMatch } from './proxy/request-rule.js';
export { RequestHold, type HeldRequest, type HoldOptions } from './proxy/request-hold.js';
export type { FaultControls, PartitionOptions, ProxyCounters, ProxyDirection } from './proxy/controls.js';
export type { Delay } from './proxy/delay.js';
export { openProxyCount, stopAllProxies } from './proxy/registry.js';
