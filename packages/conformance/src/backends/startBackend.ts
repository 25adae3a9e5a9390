// Starting a topology (standalone, with a replica, cluster or Sentinel) as a backend for one
// adapter.
import {
  startCluster,
  startReplicated,
  startSentinel,
  startStandalone,
  useStandalone,
  type RedisNode,
  type StandaloneTarget,
} from '@deadbolt/test-harness';
import type { Backend } from './Backend.js';
import type { AdapterName, ConnectionSpec, DriverMajor, TopologyName } from './ConnectionSpec.js';
import { HarnessBackend } from './HarnessBackend.js';

/** Options of {@link startBackend}. */
export interface BackendOptions {
  /**
   * Replicas per master (0 by default); `cluster.failover()` needs 1. A standalone backend with
   * a replica is a master and a replica of its own (`serverArgs` and `dedicated` do not apply).
   */
  readonly replicas?: 0 | 1;
  /**
   * Servers of the backend's own even when REDIS_URL is set, for tests that kill, restart or
   * pause them. A cluster is always the backend's own.
   */
  readonly dedicated?: boolean;
  /** The driver major of the backend's clients ({@link DEFAULT_MAJOR} by default). */
  readonly major?: DriverMajor;
  /**
   * More redis-server arguments for every server the backend starts itself, e.g. persistence for
   * a restart that keeps the data. Ignored for a REDIS_URL server (see `dedicated`).
   */
  readonly serverArgs?: readonly string[];
}

/**
 * Starts the topology (a standalone server, REDIS_URL's when set unless `dedicated`, or a
 * 3-master cluster) and returns a backend for `adapter` on it.
 */
export async function startBackend(
  adapter: AdapterName,
  topology: TopologyName,
  options: BackendOptions = {},
): Promise<Backend> {
  const driver = { adapter, topology, ...(options.major === undefined ? {} : { major: options.major }) };
  if (topology === 'sentinel') return startSentinelBackend(driver);
  if (topology === 'standalone' && options.replicas) {
    const { master, nodes, stop } = await startReplicated();
    return new HarnessBackend({ ...driver, nodes: [{ host: master.host, port: master.port }] }, nodes, undefined, stop);
  }
  if (topology === 'standalone') {
    const args = options.serverArgs ?? [];
    const target: StandaloneTarget = options.dedicated
      ? ownTarget(await startStandalone({ args }))
      : await useStandalone();
    const address = { host: target.host, port: target.port };
    return new HarnessBackend({ ...driver, nodes: [address] }, target.node ? [target.node] : [], undefined, () =>
      target.stop(),
    );
  }
  const cluster = await startCluster({
    replicas: options.replicas ?? 0,
    ...(options.serverArgs ? { args: options.serverArgs } : {}),
  });
  return new HarnessBackend({ ...driver, nodes: cluster.startupNodes }, cluster.nodes, cluster, () => cluster.stop());
}

/** A master, two replicas and three Sentinels; the clients find the master through the Sentinels. */
async function startSentinelBackend(driver: Pick<ConnectionSpec, 'adapter' | 'topology' | 'major'>): Promise<Backend> {
  const sentinel = await startSentinel();
  const spec = { ...driver, nodes: sentinel.sentinelAddresses, masterName: sentinel.masterName };
  return new HarnessBackend(spec, sentinel.dataNodes, undefined, () => sentinel.stop(), sentinel);
}

/** A server the harness started for this backend alone, as a standalone target. */
function ownTarget(node: RedisNode): StandaloneTarget {
  return { url: node.url, host: node.host, port: node.port, node, stop: () => node.stop() };
}
