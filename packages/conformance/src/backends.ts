// The backends matrix every integration test of the project runs on: each adapter over each
// topology, on real redis-server processes started by the test harness.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
import type { Executor } from '@deadbolt/core';
import {
  sendCommand,
  startCluster,
  startProxies,
  startReplicated,
  startSentinel,
  startStandalone,
  useStandalone,
  type ClusterHandle,
  type ProxyGroup,
  type RedisNode,
  type SentinelHandle,
  type StandaloneTarget,
} from '@deadbolt/test-harness';
import {
  GlideClient,
  GlideClusterClient,
  Logger,
  ProtocolVersion,
  type GlideClientConfiguration,
  type GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import { Cluster, Redis } from 'ioredis';
import { Cluster as Cluster5, Redis as Redis5 } from 'ioredis5';
import { createClient, createCluster, createSentinel } from 'redis';
import {
  createClient as createClient5,
  createCluster as createCluster5,
  createSentinel as createSentinel5,
} from 'redis5';

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

/**
 * The backend's fault proxies and the spec of a connection through them ({@link Backend.proxies},
 * {@link Backend.proxiedSpec}); throws for a backend that offers none.
 */
export async function backendProxies(
  backend: Backend,
): Promise<{ readonly proxies: ProxyGroup; readonly spec: ConnectionSpec }> {
  if (backend.proxies === undefined || backend.proxiedSpec === undefined)
    throw new Error(`${backend.name} offers no fault proxies`);
  return { proxies: await backend.proxies(), spec: await backend.proxiedSpec() };
}

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

/** Options of {@link connectExecutor} and {@link Backend.createExecutor}. */
export interface ConnectOptions {
  /** The name of the executor's subscriber connections (the adapter's default when absent). */
  readonly subscriberName?: string;
  /** Overrides {@link ConnectionSpec.resp} for this client. */
  readonly resp?: RespVersion;
  /** Overrides {@link ConnectionSpec.major} for this client. */
  readonly major?: DriverMajor;
  /**
   * {@link Backend.connect} only: connect through the backend's fault proxies
   * ({@link Backend.proxies}), started on first use.
   */
  readonly proxied?: boolean;
}

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

/** An executor over a driver client made for it. */
export interface ConnectedExecutor {
  readonly executor: Executor;
  /** Sends PING through the driver client itself, not through the executor's connections. */
  ping(): Promise<unknown>;
  /** Closes the executor, then the driver client. */
  close(): Promise<void>;
}

/** A running topology and the means to test an adapter against it. */
export interface Backend {
  /** `<adapter>/<topology>`, or `<adapter>@<major>/<topology>` for a major other than the default. */
  readonly name: string;
  readonly spec: ConnectionSpec;
  /**
   * The servers the harness started, for fault injection: the standalone server (then its
   * replica, if any), or every cluster node. Empty when the standalone server came from REDIS_URL (see
   * {@link BackendOptions.dedicated}).
   */
  readonly nodes: readonly RedisNode[];
  /** The cluster handle (failover, masterForKey); `undefined` for a standalone backend. */
  readonly cluster: ClusterHandle | undefined;
  /** The Sentinel deployment (failover, killMaster); `undefined` for the other topologies. */
  readonly sentinel?: SentinelHandle | undefined;
  /** A new executor over a new driver client; both are closed by {@link Backend.close}. */
  createExecutor(options?: ConnectOptions): Promise<Executor>;
  /** Like {@link Backend.createExecutor}, with access to the driver client and an early close. */
  connect(options?: ConnectOptions): Promise<ConnectedExecutor>;
  /**
   * The fault proxies in front of the backend's servers (the standalone server, or every cluster
   * node), started on the first call and closed by {@link Backend.close}: latency, requests cut
   * after Redis ran them, partitions, resets. Connect through them with `connect({ proxied: true })`
   * or, in a child process, with {@link Backend.proxiedSpec}. Needs servers the harness started.
   * Every backend from {@link startBackend} has it (see {@link backendProxies}); optional so that
   * wrappers of a backend need not offer it.
   */
  proxies?(): Promise<ProxyGroup>;
  /** The spec of a connection through {@link Backend.proxies}, for {@link connectExecutor} (child processes too). */
  proxiedSpec?(): Promise<ConnectionSpec>;
  /**
   * Runs a raw command on the master that owns `key` (any master without one) over a fresh
   * connection; replies as RESP2 decodes them.
   */
  command(args: readonly (string | number)[], key?: string): Promise<unknown>;
  /** Union over the nodes of `PUBSUB CHANNELS` and `PUBSUB SHARDCHANNELS`, sorted; the Sentinels' own channels left out. */
  pubsubChannels(pattern?: string): Promise<string[]>;
  /** How many connections named `name` the reachable nodes have. */
  connectionsNamed(name: string): Promise<number>;
  /** Kills every connection named `name` on every reachable node; returns how many. */
  killClientsByName(name: string): Promise<number>;
  /** Closes every executor and client it created, then stops the servers it started. */
  close(): Promise<void>;
}

/** An adapter on a topology: one entry of {@link BACKENDS}. */
export interface AdapterOnTopology {
  readonly adapter: AdapterName;
  readonly topology: TopologyName;
}

const ALL_BACKENDS: readonly AdapterOnTopology[] = [
  { adapter: 'ioredis', topology: 'standalone' },
  { adapter: 'ioredis', topology: 'cluster' },
  { adapter: 'node-redis', topology: 'standalone' },
  { adapter: 'node-redis', topology: 'cluster' },
  { adapter: 'valkey-glide', topology: 'standalone' },
  { adapter: 'valkey-glide', topology: 'cluster' },
];

/**
 * Every adapter × topology, for `describe.each(BACKENDS)`. `DEADBOLT_BACKENDS` narrows it, e.g.
 * `DEADBOLT_BACKENDS=ioredis/cluster,node-redis/standalone`.
 */
export const BACKENDS: readonly AdapterOnTopology[] = selectBackends(ALL_BACKENDS, process.env['DEADBOLT_BACKENDS']);

/**
 * The adapters whose driver has a Sentinel client (ioredis and node-redis; Valkey GLIDE for Node.js
 * has none) on the `sentinel` topology, for the suites that also run there. `DEADBOLT_BACKENDS`
 * narrows it as it does {@link BACKENDS}, e.g. `DEADBOLT_BACKENDS=ioredis/sentinel`.
 */
export const SENTINEL_BACKENDS: readonly AdapterOnTopology[] = selectBackends(
  [
    { adapter: 'ioredis', topology: 'sentinel' },
    { adapter: 'node-redis', topology: 'sentinel' },
  ],
  process.env['DEADBOLT_BACKENDS'],
);

/** {@link BACKENDS} and {@link SENTINEL_BACKENDS}: every deployment, for the suites that run on all of them. */
export const BACKENDS_WITH_SENTINEL: readonly AdapterOnTopology[] = [...BACKENDS, ...SENTINEL_BACKENDS];

/**
 * Both majors of each driver, for the tests where the driver's version matters: the executor
 * contract and its faults (reconnects, failovers). The lock suites above the executor run on
 * {@link DEFAULT_MAJOR} only. `DEADBOLT_MAJORS` narrows it, e.g. `DEADBOLT_MAJORS=6`.
 */
export const MAJORS: readonly DriverMajor[] = selectFrom<DriverMajor>([5, 6], process.env['DEADBOLT_MAJORS'], String);

/** {@link MAJORS} for a driver that has both, the one GLIDE major (as {@link DEFAULT_MAJOR}) for GLIDE. */
export function majorsOf(adapter: AdapterName): readonly DriverMajor[] {
  return adapter === 'valkey-glide' ? MAJORS.filter((major) => major === DEFAULT_MAJOR) : MAJORS;
}

/**
 * Whether the adapter can subscribe a sharded channel (`SSUBSCRIBE`) on a standalone server:
 * Valkey GLIDE cannot, its standalone client has classic pub/sub only (sharded pub/sub is a
 * cluster feature there).
 */
export function shardedOnStandalone(adapter: AdapterName): boolean {
  return adapter !== 'valkey-glide';
}

function selectBackends(all: readonly AdapterOnTopology[], filter: string | undefined) {
  return selectFrom(all, filter, ({ adapter, topology }) => `${adapter}/${topology}`);
}

/** The entries whose label a comma-separated filter names; all of them when it is unset or blank. */
function selectFrom<T>(all: readonly T[], filter: string | undefined, label: (entry: T) => string): readonly T[] {
  if (filter === undefined || filter.trim() === '') return all;
  const wanted = new Set(filter.split(',').map((entry) => entry.trim()));
  return all.filter((entry) => wanted.has(label(entry)));
}

/**
 * The RESP versions the driver can speak: ioredis 5 has RESP2 only, the others both. A
 * connection asked for another fails.
 */
export function respVersions(adapter: AdapterName, major: DriverMajor = DEFAULT_MAJOR): readonly RespVersion[] {
  return adapter === 'ioredis' && major === 5 ? [2] : [2, 3];
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

/** Creates the driver client the spec names and an executor over it. Used in child processes too. */
export async function connectExecutor(spec: ConnectionSpec, options: ConnectOptions = {}): Promise<ConnectedExecutor> {
  const resp = options.resp ?? spec.resp;
  const major = options.major ?? spec.major ?? DEFAULT_MAJOR;
  const executorOptions = options.subscriberName === undefined ? {} : { subscriberName: options.subscriberName };
  const client = await connectClient(spec, resp, major);
  const executor =
    client.kind === 'ioredis'
      ? ioredisExecutor(client.client, executorOptions)
      : client.kind === 'valkey-glide'
        ? valkeyGlideExecutor(client.client, { ...executorOptions, connection: client.connection })
        : nodeRedisExecutor(client.client, executorOptions);
  let closing: Promise<void> | undefined;
  return {
    executor,
    ping: client.ping,
    close: () => (closing ??= executor.close().finally(client.close)),
  };
}

type DriverClient = (
  | { readonly kind: 'ioredis'; readonly client: Redis | Cluster }
  | { readonly kind: 'node-redis'; readonly client: Parameters<typeof nodeRedisExecutor>[0] }
  | {
      readonly kind: 'valkey-glide';
      readonly client: GlideClient | GlideClusterClient;
      readonly connection: GlideClientConfiguration | GlideClusterClientConfiguration;
    }
) & { ping(): Promise<unknown>; close(): Promise<void> };

/**
 * Each driver's client constructors by major. The adapters are typed against the default major;
 * the other one's classes differ in private parts and type parameters only, hence the casts
 * (each adapter's test/acceptedClients.ts checks at compile time what it accepts).
 */
const DRIVERS = {
  ioredis: {
    5: { Redis: Redis5 as unknown as typeof Redis, Cluster: Cluster5 as unknown as typeof Cluster },
    6: { Redis, Cluster },
  },
  'node-redis': {
    5: {
      createClient: createClient5 as unknown as typeof createClient,
      createCluster: createCluster5 as unknown as typeof createCluster,
      createSentinel: createSentinel5 as unknown as typeof createSentinel,
    },
    6: { createClient, createCluster, createSentinel },
  },
} as const;

async function connectClient(
  spec: ConnectionSpec,
  resp: RespVersion | undefined,
  major: DriverMajor,
): Promise<DriverClient> {
  const [first] = spec.nodes;
  if (first === undefined) throw new Error('ConnectionSpec.nodes is empty');
  if (resp !== undefined && !respVersions(spec.adapter, major).includes(resp)) {
    throw new Error(`${spec.adapter} ${major} cannot speak RESP${resp}`);
  }
  // Applications must listen for 'error' (node-redis throws without a listener); tests kill nodes.
  const ignore = () => undefined;
  if (spec.adapter === 'valkey-glide') return connectGlide(spec, resp);
  if (spec.adapter === 'ioredis') {
    const ioredis = DRIVERS.ioredis[major];
    const protocol = resp === undefined ? {} : { protocol: resp };
    const sentinels =
      spec.topology === 'sentinel'
        ? { sentinels: spec.nodes.map((node) => ({ ...node })), name: masterNameOf(spec) }
        : first;
    const client =
      spec.topology === 'cluster'
        ? new ioredis.Cluster(
            spec.nodes.map((node) => ({ ...node })),
            { lazyConnect: true, redisOptions: protocol, ...ioredisProxyOptions(spec) },
          )
        : new ioredis.Redis({ ...sentinels, ...protocol, lazyConnect: true });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'ioredis',
      client,
      ping: () => client.ping(),
      close: () => client.quit().then(ignore, () => client.disconnect()),
    };
  }
  const nodeRedis = DRIVERS['node-redis'][major];
  const protocol = resp === undefined ? {} : { RESP: resp };
  if (spec.topology === 'cluster') {
    const client = nodeRedis.createCluster({
      rootNodes: spec.nodes.map((node) => ({ socket: { ...node } })),
      ...protocol,
      ...(spec.addressMap === undefined ? {} : { nodeAddressMap: copyAddressMap(spec.addressMap) }),
    });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'node-redis',
      client,
      ping: () => client.sendCommand(undefined, true, ['PING']),
      close: () => client.close().catch(() => client.destroy()),
    };
  }
  if (spec.topology === 'sentinel') {
    const client = nodeRedis.createSentinel({
      name: masterNameOf(spec),
      sentinelRootNodes: spec.nodes.map((node) => ({ ...node })),
      ...protocol,
    });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'node-redis',
      client,
      ping: () => client.sendCommand(false, ['PING']),
      close: () => client.close().catch(() => client.destroy()),
    };
  }
  const client = nodeRedis.createClient({ socket: { ...first }, ...protocol });
  client.on('error', ignore);
  await client.connect();
  return {
    kind: 'node-redis',
    client,
    ping: () => client.ping(),
    close: () => client.close().catch(() => client.destroy()),
  };
}

/**
 * The `requestTimeout` of the suites' GLIDE clients. GLIDE's default of 250 ms fails a request
 * that a loaded machine answers late, and a request waits for a reconnect no longer than other
 * drivers' clients do (tests kill servers).
 */
export const GLIDE_REQUEST_TIMEOUT_MS = 5_000;

/**
 * A GLIDE client for the spec. GLIDE has no Sentinel client. A cluster reached through fault
 * proxies maps the announced addresses with GLIDE's `addressResolver`.
 */
async function connectGlide(spec: ConnectionSpec, resp: RespVersion | undefined): Promise<DriverClient> {
  // GLIDE logs a warning for every error reply (each NOSCRIPT, each refused script the suites
  // provoke) to the console; errors only.
  Logger.setLoggerConfig('error');
  if (spec.topology === 'sentinel') throw new Error('Valkey GLIDE for Node.js has no Sentinel client');
  const addresses = spec.nodes.map(({ host, port }) => ({ host, port }));
  const map = spec.addressMap;
  const base = {
    addresses,
    ...(resp === undefined ? {} : { protocol: resp === 2 ? ProtocolVersion.RESP2 : ProtocolVersion.RESP3 }),
    requestTimeout: GLIDE_REQUEST_TIMEOUT_MS,
    ...(map === undefined
      ? {}
      : {
          addressResolver: (host: string, port: number): [string, number] => {
            const target = map[`${host}:${port}`];
            return target === undefined ? [host, port] : [target.host, target.port];
          },
        }),
  };
  if (spec.topology === 'cluster') {
    const connection: GlideClusterClientConfiguration = base;
    const client = await GlideClusterClient.createClient(connection);
    return {
      kind: 'valkey-glide',
      client,
      connection,
      ping: () => client.customCommand(['PING']),
      close: () => Promise.resolve(client.close()),
    };
  }
  const connection: GlideClientConfiguration = base;
  const client = await GlideClient.createClient(connection);
  return {
    kind: 'valkey-glide',
    client,
    connection,
    ping: () => client.customCommand(['PING']),
    close: () => Promise.resolve(client.close()),
  };
}

function masterNameOf(spec: ConnectionSpec): string {
  if (spec.masterName === undefined) throw new Error('ConnectionSpec.masterName is required for the sentinel topology');
  return spec.masterName;
}

/**
 * ioredis `Cluster` options for a spec whose nodes are reached through fault proxies: `natMap`, so
 * that the nodes the cluster announces are reached through their proxies, and
 * `clusterNodeRetryStrategy` (ioredis's standalone default), so that a node connection a proxy
 * cut or partitioned reconnects and re-sends its unanswered commands as a standalone client does.
 * Without it ioredis drops the node, rejects those commands with "Connection is closed." and
 * retries them through the cluster (other nodes, MOVED) every 100 ms, 16 times at most, then
 * fails them: a re-send that can only come within about a second.
 */
function ioredisProxyOptions(spec: ConnectionSpec): {
  natMap?: Record<string, { host: string; port: number }>;
  clusterNodeRetryStrategy?: (times: number) => number;
} {
  if (spec.addressMap === undefined) return {};
  return { natMap: copyAddressMap(spec.addressMap), clusterNodeRetryStrategy: (times) => Math.min(times * 50, 2000) };
}

function copyAddressMap(map: Readonly<Record<string, NodeAddress>>): Record<string, { host: string; port: number }> {
  return Object.fromEntries(Object.entries(map).map(([announced, { host, port }]) => [announced, { host, port }]));
}

/** The Sentinels' own channel on every data node they monitor (`__sentinel__:hello`), not the application's. */
const SENTINEL_CHANNELS = '__sentinel__:';

class HarnessBackend implements Backend {
  readonly name: string;
  readonly #connected = new Set<ConnectedExecutor>();
  readonly #stop: () => Promise<void>;
  #proxies: Promise<ProxyGroup> | undefined;

  constructor(
    readonly spec: ConnectionSpec,
    readonly nodes: readonly RedisNode[],
    readonly cluster: ClusterHandle | undefined,
    stop: () => Promise<void>,
    readonly sentinel?: SentinelHandle,
  ) {
    const major = spec.major ?? DEFAULT_MAJOR;
    this.name = `${spec.adapter}${major === DEFAULT_MAJOR ? '' : `@${major}`}/${spec.topology}`;
    this.#stop = stop;
  }

  async createExecutor(options: ConnectOptions = {}): Promise<Executor> {
    return (await this.connect(options)).executor;
  }

  async connect(options: ConnectOptions = {}): Promise<ConnectedExecutor> {
    const { proxied, ...rest } = options;
    const connected = await connectExecutor(proxied ? await this.proxiedSpec() : this.spec, rest);
    this.#connected.add(connected);
    return connected;
  }

  proxies(): Promise<ProxyGroup> {
    if (this.nodes.length === 0)
      return Promise.reject(
        new Error(`${this.name}: no server of the backend's own to proxy (start it with { dedicated: true })`),
      );
    this.#proxies ??= startProxies(this.nodes);
    // A failed start is tried again next time.
    this.#proxies.catch(() => (this.#proxies = undefined));
    return this.#proxies;
  }

  async proxiedSpec(): Promise<ConnectionSpec> {
    const proxies = await this.proxies();
    const [standalone] = proxies.addresses;
    if (this.cluster === undefined) return { ...this.spec, nodes: standalone === undefined ? [] : [standalone] };
    return { ...this.spec, nodes: proxies.addresses, addressMap: proxies.addressMap };
  }

  async command(args: readonly (string | number)[], key?: string): Promise<unknown> {
    const reply = await sendCommand(await this.#nodeFor(key), args);
    if (reply instanceof Error) throw reply;
    return reply;
  }

  async pubsubChannels(pattern = '*'): Promise<string[]> {
    const channels = new Set<string>();
    for (const address of this.#reachable()) {
      for (const kind of ['CHANNELS', 'SHARDCHANNELS']) {
        const reply = await sendCommand(address, ['PUBSUB', kind, pattern]);
        if (Array.isArray(reply))
          for (const channel of reply)
            if (!String(channel).startsWith(SENTINEL_CHANNELS)) channels.add(String(channel));
      }
    }
    return [...channels].sort();
  }

  async connectionsNamed(name: string): Promise<number> {
    let count = 0;
    for (const address of this.#reachable()) count += (await clientIds(address, name)).length;
    return count;
  }

  async killClientsByName(name: string): Promise<number> {
    let killed = 0;
    for (const address of this.#reachable()) {
      // CLIENT KILL has no name filter; kill by id what CLIENT LIST calls `name`.
      for (const id of await clientIds(address, name))
        killed += Number(await sendCommand(address, ['CLIENT', 'KILL', 'ID', id]));
    }
    return killed;
  }

  async close(): Promise<void> {
    const connected = [...this.#connected];
    this.#connected.clear();
    await Promise.allSettled(connected.map((c) => c.close()));
    const proxies = this.#proxies;
    this.#proxies = undefined;
    await proxies?.then(
      (group) => group.close(),
      () => undefined,
    );
    await this.#stop();
  }

  async #nodeFor(key: string | undefined): Promise<NodeAddress> {
    if (this.sentinel !== undefined) return this.sentinel.master();
    if (this.cluster === undefined) return this.#standalone();
    if (key !== undefined) return this.cluster.masterForKey(key);
    const master = this.cluster.masters.find((node) => node.running);
    if (master === undefined) throw new Error('no running master');
    return master;
  }

  #standalone(): NodeAddress {
    const [address] = this.spec.nodes;
    if (address === undefined) throw new Error('no standalone server');
    return address;
  }

  /** Every node a subscription may live on; killed ones are skipped. */
  #reachable(): NodeAddress[] {
    if (this.sentinel !== undefined) return this.sentinel.dataNodes.filter((node) => node.running);
    if (this.cluster === undefined) return [this.#standalone()];
    return this.cluster.nodes.filter((node) => node.running);
  }
}

/** The ids of the connections named `name` on one server. */
async function clientIds(address: NodeAddress, name: string): Promise<string[]> {
  const list = String(await sendCommand(address, ['CLIENT', 'LIST']));
  const ids: string[] = [];
  for (const line of list.split('\n')) {
    // `id=7 addr=... name=x ...`: no value contains a space.
    const fields = new Map(
      line
        .trim()
        .split(' ')
        .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
    );
    const id = fields.get('id');
    if (fields.get('name') === name && id !== undefined) ids.push(id);
  }
  return ids;
}
