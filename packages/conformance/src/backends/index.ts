// The backends every integration test of the project runs on: each adapter over each topology,
// on real redis-server processes started by the test harness.
export {
  DEFAULT_MAJOR,
  type AdapterName,
  type ConnectionSpec,
  type DriverMajor,
  type NodeAddress,
  type RespVersion,
  type TopologyName,
} from './ConnectionSpec.js';
export {
  BACKENDS,
  BACKENDS_WITH_SENTINEL,
  MAJORS,
  majorsOf,
  respVersions,
  SENTINEL_BACKENDS,
  shardedOnStandalone,
  type AdapterOnTopology,
} from './matrix.js';
export { GLIDE_REQUEST_TIMEOUT_MS } from './glideClient.js';
export { connectExecutor, type ConnectedExecutor, type ConnectOptions } from './connectExecutor.js';
export { backendProxies, type Backend } from './Backend.js';
export { startBackend, type BackendOptions } from './startBackend.js';
