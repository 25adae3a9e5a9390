// The backends matrix every integration test of the project runs on: each adapter over each
// topology, on real redis-server processes started by the test harness.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import type { Executor } from '@deadbolt/core';
import { sendCommand, startCluster, useStandalone, type ClusterHandle, type RedisNode } from '@deadbolt/test-harness';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';

/** The driver an executor is built on. */
export type AdapterName = 'ioredis' | 'node-redis';
/** The Redis deployment a backend runs. */
export type TopologyName = 'standalone' | 'cluster';
/** The RESP protocol version a driver client speaks. */
export type RespVersion = 2 | 3;

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
  /** The standalone server, or the seed nodes of the cluster. */
  readonly nodes: readonly NodeAddress[];
  /** The protocol of the driver client; the driver's default when absent. */
  readonly resp?: RespVersion;
}

/** Options of {@link connectExecutor} and {@link Backend.createExecutor}. */
export interface ConnectOptions {
  /** The name of the executor's subscriber connections (the adapter's default when absent). */
  readonly subscriberName?: string;
  /** Overrides {@link ConnectionSpec.resp} for this client. */
  readonly resp?: RespVersion;
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
  /** `<adapter>/<topology>`. */
  readonly name: string;
  readonly spec: ConnectionSpec;
  /**
   * The servers the harness started, for fault injection: the standalone server, or every
   * cluster node. Empty when the standalone server came from REDIS_URL.
   */
  readonly nodes: readonly RedisNode[];
  /** The cluster handle (failover, masterForKey); `undefined` for a standalone backend. */
  readonly cluster: ClusterHandle | undefined;
  /** A new executor over a new driver client; both are closed by {@link Backend.close}. */
  createExecutor(options?: ConnectOptions): Promise<Executor>;
  /** Like {@link Backend.createExecutor}, with access to the driver client and an early close. */
  connect(options?: ConnectOptions): Promise<ConnectedExecutor>;
  /**
   * Runs a raw command on the master that owns `key` (any master without one) over a fresh
   * connection; replies as RESP2 decodes them.
   */
  command(args: readonly (string | number)[], key?: string): Promise<unknown>;
  /** Union over the nodes of `PUBSUB CHANNELS` and `PUBSUB SHARDCHANNELS`, sorted. */
  pubsubChannels(pattern?: string): Promise<string[]>;
  /** How many connections named `name` the reachable nodes have. */
  connectionsNamed(name: string): Promise<number>;
  /** Kills every connection named `name` on every reachable node; returns how many. */
  killClientsByName(name: string): Promise<number>;
  /** Closes every executor and client it created, then stops the servers it started. */
  close(): Promise<void>;
}

const ALL_BACKENDS: readonly { readonly adapter: AdapterName; readonly topology: TopologyName }[] = [
  { adapter: 'ioredis', topology: 'standalone' },
  { adapter: 'ioredis', topology: 'cluster' },
  { adapter: 'node-redis', topology: 'standalone' },
  { adapter: 'node-redis', topology: 'cluster' },
];

/**
 * Every adapter × topology, for `describe.each(BACKENDS)`. `DEADBOLT_BACKENDS` narrows it, e.g.
 * `DEADBOLT_BACKENDS=ioredis/cluster,node-redis/standalone`.
 */
export const BACKENDS: readonly { readonly adapter: AdapterName; readonly topology: TopologyName }[] = selectBackends(
  process.env['DEADBOLT_BACKENDS'],
);

function selectBackends(filter: string | undefined) {
  if (filter === undefined || filter.trim() === '') return ALL_BACKENDS;
  const wanted = new Set(filter.split(',').map((entry) => entry.trim()));
  return ALL_BACKENDS.filter(({ adapter, topology }) => wanted.has(`${adapter}/${topology}`));
}

/**
 * Starts the topology (a standalone server, REDIS_URL's when set, or a 3-master cluster) and
 * returns a backend for `adapter` on it.
 */
export async function startBackend(
  adapter: AdapterName,
  topology: TopologyName,
  options: { readonly replicas?: 0 | 1 } = {},
): Promise<Backend> {
  if (topology === 'standalone') {
    const target = await useStandalone();
    const address = { host: target.host, port: target.port };
    return new HarnessBackend({ adapter, topology, nodes: [address] }, target.node ? [target.node] : [], undefined, () => target.stop());
  }
  const cluster = await startCluster({ replicas: options.replicas ?? 0 });
  return new HarnessBackend({ adapter, topology, nodes: cluster.startupNodes }, cluster.nodes, cluster, () => cluster.stop());
}

/** Creates the driver client the spec names and an executor over it. Used in child processes too. */
export async function connectExecutor(spec: ConnectionSpec, options: ConnectOptions = {}): Promise<ConnectedExecutor> {
  const resp = options.resp ?? spec.resp;
  const executorOptions = options.subscriberName === undefined ? {} : { subscriberName: options.subscriberName };
  const client = await connectClient(spec, resp);
  const executor =
    client.kind === 'ioredis' ? ioredisExecutor(client.client, executorOptions) : nodeRedisExecutor(client.client, executorOptions);
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
) & { ping(): Promise<unknown>; close(): Promise<void> };

async function connectClient(spec: ConnectionSpec, resp: RespVersion | undefined): Promise<DriverClient> {
  const [first] = spec.nodes;
  if (first === undefined) throw new Error('ConnectionSpec.nodes is empty');
  // Applications must listen for 'error' (node-redis throws without a listener); tests kill nodes.
  const ignore = () => undefined;
  if (spec.adapter === 'ioredis') {
    const protocol = resp === undefined ? {} : { protocol: resp };
    const client =
      spec.topology === 'cluster'
        ? new Cluster(spec.nodes.map((node) => ({ ...node })), { lazyConnect: true, redisOptions: protocol })
        : new Redis({ ...first, ...protocol, lazyConnect: true });
    client.on('error', ignore);
    await client.connect();
    return { kind: 'ioredis', client, ping: () => client.ping(), close: () => client.quit().then(ignore, () => client.disconnect()) };
  }
  const protocol = resp === undefined ? {} : { RESP: resp };
  if (spec.topology === 'cluster') {
    const client = createCluster({ rootNodes: spec.nodes.map((node) => ({ socket: { ...node } })), ...protocol });
    client.on('error', ignore);
    await client.connect();
    return {
      kind: 'node-redis',
      client,
      ping: () => client.sendCommand(undefined, true, ['PING']),
      close: () => client.close().catch(() => client.destroy()),
    };
  }
  const client = createClient({ socket: { ...first }, ...protocol });
  client.on('error', ignore);
  await client.connect();
  return { kind: 'node-redis', client, ping: () => client.ping(), close: () => client.close().catch(() => client.destroy()) };
}

class HarnessBackend implements Backend {
  readonly name: string;
  readonly #connected = new Set<ConnectedExecutor>();
  readonly #stop: () => Promise<void>;

  constructor(
    readonly spec: ConnectionSpec,
    readonly nodes: readonly RedisNode[],
    readonly cluster: ClusterHandle | undefined,
    stop: () => Promise<void>,
  ) {
    this.name = `${spec.adapter}/${spec.topology}`;
    this.#stop = stop;
  }

  async createExecutor(options: ConnectOptions = {}): Promise<Executor> {
    return (await this.connect(options)).executor;
  }

  async connect(options: ConnectOptions = {}): Promise<ConnectedExecutor> {
    const connected = await connectExecutor(this.spec, options);
    this.#connected.add(connected);
    return connected;
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
        if (Array.isArray(reply)) for (const channel of reply) channels.add(String(channel));
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
      for (const id of await clientIds(address, name)) killed += Number(await sendCommand(address, ['CLIENT', 'KILL', 'ID', id]));
    }
    return killed;
  }

  async close(): Promise<void> {
    const connected = [...this.#connected];
    this.#connected.clear();
    await Promise.allSettled(connected.map((c) => c.close()));
    await this.#stop();
  }

  async #nodeFor(key: string | undefined): Promise<NodeAddress> {
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
    const fields = new Map(line.trim().split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
    const id = fields.get('id');
    if (fields.get('name') === name && id !== undefined) ids.push(id);
  }
  return ids;
}
