// How to reach a backend and with which driver: the vocabulary every other part of the backends
// speaks, and what a child process receives to connect on its own.

/** The driver an executor is built on. */
export type AdapterName = 'ioredis' | 'node-redis' | 'valkey-glide';
/**
 * The Redis deployment a backend runs. `sentinel` (a master, two replicas, three Sentinels) is
 * not in {@link BACKENDS}: the suites that also run there take {@link SENTINEL_BACKENDS}.
 */
export type TopologyName = 'standalone' | 'cluster' | 'sentinel';
/** The RESP protocol version a driver client speaks. */
export type RespVersion = 2 | 3;
/**
 * A supported major version of the driver: ioredis 5 or 6, redis (node-redis) 5 or 6. Valkey
 * GLIDE has one, 2 (from 2.3), which the specs call {@link DEFAULT_MAJOR} (see {@link majorsOf}).
 */
export type DriverMajor = 5 | 6;

/** The major a client is built with unless told otherwise: the one the adapters are typed against. */
export const DEFAULT_MAJOR: DriverMajor = 6;

/** A host and port of one server. */
export interface NodeAddress {
  readonly host: string;
  readonly port: number;
}

/**
 * How to reach a backend and with which driver. JSON-serialisable, so that a test can hand it to
 * a child process, which connects with {@link connectExecutor}.
 */
export interface ConnectionSpec {
  readonly adapter: AdapterName;
  readonly topology: TopologyName;
  /** The standalone server, the seed nodes of the cluster, or the Sentinels. */
  readonly nodes: readonly NodeAddress[];
  /** The name the Sentinels monitor the master under; for the `sentinel` topology only. */
  readonly masterName?: string;
  /** The protocol of the driver client; the driver's default when absent. */
  readonly resp?: RespVersion;
  /** The driver's major version; {@link DEFAULT_MAJOR} when absent. */
  readonly major?: DriverMajor;
  /**
   * Where to connect instead of the addresses the cluster's nodes announce (`host:port` to the
   * address of a fault proxy in front of that node), given to the cluster client as ioredis's
   * `natMap` (with a `clusterNodeRetryStrategy`, see ioredisProxyOptions) or node-redis's
   * `nodeAddressMap`; `nodes` then lists the proxies. See {@link Backend.proxiedSpec}.
   */
  readonly addressMap?: Readonly<Record<string, NodeAddress>>;
}

/** The spec's {@link ConnectionSpec.masterName}; throws when it lacks one. */
export function masterNameOf(spec: ConnectionSpec): string {
  if (spec.masterName === undefined) throw new Error('ConnectionSpec.masterName is required for the sentinel topology');
  return spec.masterName;
}

/** A mutable copy of {@link ConnectionSpec.addressMap}, the shape the drivers' options take. */
export function copyAddressMap(
  map: Readonly<Record<string, NodeAddress>>,
): Record<string, { host: string; port: number }> {
  return Object.fromEntries(Object.entries(map).map(([announced, { host, port }]) => [announced, { host, port }]));
}
