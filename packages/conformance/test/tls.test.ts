// The core Lock's conformance suites over TLS: both adapters, standalone and cluster, on servers the
// harness starts with TLS (certificates generated for the run). The drivers connect to the TLS
// ports only; the harness's own commands (PUBSUB, CLIENT LIST, raw checks) use the servers' plain
// ports. The exclusion suite's child processes connect through the plain ports (their spec has no
// TLS), so there TLS clients in this process contend with plain clients in others on one lock.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
import { GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import { LockClient, type Executor, type LockClientOptions } from '@deadbolt/core';
import { DEFAULT_SUBSCRIBER_NAME } from '@deadbolt/core/adapter';
import {
  sendCommand,
  startTlsCluster,
  startTlsStandalone,
  type RedisNode,
  type TlsAddress,
  type TlsCertificates,
  type TlsClusterHandle,
  type TlsStandaloneHandle,
} from '@deadbolt/test-harness';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  BACKENDS,
  GLIDE_REQUEST_TIMEOUT_MS,
  type AdapterName,
  type Backend,
  type ConnectedExecutor,
  type TopologyName,
} from '../src/backends/index.js';
import { LOCK, subjectOf } from '../src/kinds/index.js';
import { LOCK_SUITES, type LockSuiteName } from '../src/lockConformance.js';
import type { SuiteContext } from '../src/SuiteContext.js';
import { eventually } from '../src/timing.js';

const SUITES: readonly LockSuiteName[] = ['exclusion', 'waiting', 'reentrancy'];
const subject = subjectOf(LOCK);

/** The servers of one TLS topology: the TLS seeds for the drivers, the plain nodes for the harness. */
interface TlsServers {
  readonly topology: TopologyName;
  readonly seeds: readonly TlsAddress[];
  readonly nodes: readonly RedisNode[];
  readonly certificates: TlsCertificates;
  readonly handle: TlsStandaloneHandle | TlsClusterHandle;
  stop(): Promise<void>;
}

async function startTls(topology: TopologyName): Promise<TlsServers> {
  if (topology === 'standalone') {
    const handle = await startTlsStandalone();
    return {
      topology,
      seeds: [handle.tlsAddress],
      nodes: [handle.node],
      certificates: handle.certificates,
      handle,
      stop: () => handle.stop(),
    };
  }
  const handle = await startTlsCluster();
  return {
    topology,
    seeds: handle.tlsStartupNodes,
    nodes: handle.cluster.nodes,
    certificates: handle.certificates,
    handle,
    stop: () => handle.stop(),
  };
}

/** A driver client over TLS, trusting the harness's CA, and an executor over it. */
async function connectTls(adapter: AdapterName, servers: TlsServers): Promise<ConnectedExecutor> {
  const { ca } = servers.certificates;
  const ignore = () => undefined;
  const [first] = servers.seeds;
  if (first === undefined) throw new Error('no TLS seed');
  if (adapter === 'valkey-glide') return connectGlideTls(servers, ca);
  if (adapter === 'ioredis') {
    const client =
      servers.topology === 'cluster'
        ? new Cluster(
            servers.seeds.map((seed) => ({ ...seed })),
            { lazyConnect: true, redisOptions: { tls: { ca } } },
          )
        : new Redis({ ...first, tls: { ca }, lazyConnect: true });
    client.on('error', ignore);
    await client.connect();
    const executor = ioredisExecutor(client);
    return {
      executor,
      ping: () => client.ping(),
      close: () => executor.close().finally(() => client.quit().then(ignore, () => client.disconnect())),
    };
  }
  if (servers.topology === 'cluster') {
    const client = createCluster({
      rootNodes: servers.seeds.map((seed) => ({ socket: { ...seed } })),
      defaults: { socket: { tls: true, ca } },
    });
    client.on('error', ignore);
    await client.connect();
    const executor = nodeRedisExecutor(client);
    return {
      executor,
      ping: () => client.sendCommand(undefined, true, ['PING']),
      close: () => executor.close().finally(() => client.close().catch(() => client.destroy())),
    };
  }
  const client = createClient({ socket: { ...first, tls: true, ca } });
  client.on('error', ignore);
  await client.connect();
  const executor = nodeRedisExecutor(client);
  return {
    executor,
    ping: () => client.ping(),
    close: () => executor.close().finally(() => client.close().catch(() => client.destroy())),
  };
}

/** A GLIDE client over TLS (`useTLS`, the CA as `rootCertificates`); its subscriber client inherits both. */
async function connectGlideTls(servers: TlsServers, ca: string | Buffer): Promise<ConnectedExecutor> {
  const connection = {
    addresses: servers.seeds.map(({ host, port }) => ({ host, port })),
    useTLS: true,
    requestTimeout: GLIDE_REQUEST_TIMEOUT_MS,
    advancedConfiguration: { tlsAdvancedConfiguration: { rootCertificates: ca } },
  };
  const client =
    servers.topology === 'cluster'
      ? await GlideClusterClient.createClient(connection)
      : await GlideClient.createClient(connection);
  const executor = valkeyGlideExecutor(client, { connection });
  return {
    executor,
    ping: () => client.customCommand(['PING']),
    close: () => executor.close().finally(() => client.close()),
  };
}

/** The lines of CLIENT LIST on every node, as field maps. */
async function clientList(nodes: readonly RedisNode[]): Promise<Map<string, string>[]> {
  const lines: Map<string, string>[] = [];
  for (const node of nodes.filter((n) => n.running)) {
    for (const line of String(await node.command('CLIENT', 'LIST')).split('\n')) {
      if (line.trim() === '') continue;
      lines.push(
        new Map(
          line
            .trim()
            .split(' ')
            .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
        ),
      );
    }
  }
  return lines;
}

/** A {@link Backend} whose executors speak TLS; the harness's checks go to the plain ports. */
class TlsBackend implements Backend {
  readonly name: string;
  readonly spec;
  readonly cluster;
  readonly #connected = new Set<ConnectedExecutor>();

  constructor(
    adapter: AdapterName,
    readonly servers: TlsServers,
  ) {
    this.name = `${adapter}/${servers.topology} over TLS`;
    this.cluster = 'cluster' in servers.handle ? servers.handle.cluster : undefined;
    const plain = servers.topology === 'cluster' ? servers.nodes : servers.nodes.slice(0, 1);
    this.spec = {
      adapter,
      topology: servers.topology,
      nodes: plain.map((node) => ({ host: node.host, port: node.port })),
    };
  }

  get nodes(): readonly RedisNode[] {
    return this.servers.nodes;
  }

  async createExecutor(): Promise<Executor> {
    return (await this.connect()).executor;
  }

  async connect(): Promise<ConnectedExecutor> {
    const connected = await connectTls(this.spec.adapter, this.servers);
    this.#connected.add(connected);
    return connected;
  }

  async command(args: readonly (string | number)[], key?: string): Promise<unknown> {
    const node =
      this.cluster === undefined
        ? this.nodes[0]
        : key === undefined
          ? this.cluster.masters[0]
          : await this.cluster.masterForKey(key);
    if (node === undefined) throw new Error('no node');
    const reply = await sendCommand(node, args);
    if (reply instanceof Error) throw reply;
    return reply;
  }

  async pubsubChannels(pattern = '*'): Promise<string[]> {
    const channels = new Set<string>();
    for (const node of this.nodes.filter((n) => n.running)) {
      for (const kind of ['CHANNELS', 'SHARDCHANNELS']) {
        const reply = await node.command('PUBSUB', kind, pattern);
        if (Array.isArray(reply)) for (const channel of reply) channels.add(String(channel));
      }
    }
    return [...channels].sort();
  }

  async connectionsNamed(name: string): Promise<number> {
    return (await clientList(this.nodes)).filter((fields) => fields.get('name') === name).length;
  }

  async killClientsByName(name: string): Promise<number> {
    let killed = 0;
    for (const node of this.nodes.filter((n) => n.running)) killed += await node.killClientByName(name);
    return killed;
  }

  async close(): Promise<void> {
    const connected = [...this.#connected];
    this.#connected.clear();
    await Promise.allSettled(connected.map((c) => c.close()));
    await this.servers.stop();
  }
}

/** A suite context on a TLS backend, with clients closed after each test. */
function useTlsContext(adapter: AdapterName, topology: TopologyName): SuiteContext & { tlsBackend(): TlsBackend } {
  let backend: TlsBackend | undefined;
  const open: LockClient[] = [];
  let counter = 0;
  beforeAll(async () => {
    backend = new TlsBackend(adapter, await startTls(topology));
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((client) => client.close()));
  });
  afterAll(async () => {
    await backend?.close();
  });
  const tlsBackend = () => {
    if (backend === undefined) throw new Error('backend not started');
    return backend;
  };
  const uniqueName = (label = 'lock') => `tls:${label}:${process.pid}:${++counter}`;
  const lockNamed: SuiteContext['lockNamed'] = (client, name) => subject.kind.create([client], name, subject.role.name);
  return {
    subject,
    tlsBackend,
    backend: tlsBackend,
    uniqueName,
    lockNamed,
    lock: (client, label) => lockNamed(client, uniqueName(label)),
    async client(options?: LockClientOptions) {
      const client = new LockClient(await tlsBackend().createExecutor(), options);
      open.push(client);
      return client;
    },
  };
}

describe.each(BACKENDS)('Lock over TLS on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useTlsContext(adapter, topology);

  it('a waiter is woken by pub/sub over the subscriber connection, which uses TLS too', async () => {
    const [holder, waiter] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('woken');
    const held = await holder.lock(name).acquire();
    const waiting = waiter.lock(name).acquire({ waitTime: 20_000 });
    expect(await eventually(() => waiter.activity().channels.length === 1)).toBe(true);
    const tlsPorts = new Set(ctx.tlsBackend().servers.seeds.map((seed) => String(seed.port)));
    const subscribersNow = async () =>
      (await clientList(ctx.tlsBackend().nodes)).filter((fields) => fields.get('name') === DEFAULT_SUBSCRIBER_NAME);
    // The client counts its channel as soon as it asks to subscribe; the connection opens after that.
    expect(await eventually(async () => (await subscribersNow()).length > 0)).toBe(true);
    const subscribers = await subscribersNow();
    // `laddr` is the server address the connection came in on: the TLS port, never the plain one.
    for (const fields of subscribers) expect(tlsPorts.has(fields.get('laddr')?.split(':')[1] ?? '')).toBe(true);
    const released = performance.now();
    await held.release();
    await (await waiting).release();
    // Well inside the 30 s lease the waiter would otherwise sleep through.
    expect(performance.now() - released).toBeLessThan(2_000);
  });

  for (const suite of SUITES) describe(suite, () => LOCK_SUITES[suite](ctx));
});
