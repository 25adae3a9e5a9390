// The backend of a topology the harness started: it keeps the clients it made and the fault
// proxies it started so that close() ends them before the servers, and it inspects the servers
// over raw connections of its own.
import type { Executor } from '@deadbolt/core';
import {
  sendCommand,
  startProxies,
  type ClusterHandle,
  type ProxyGroup,
  type RedisNode,
  type SentinelHandle,
} from '@deadbolt/test-harness';
import type { Backend } from './Backend.js';
import { DEFAULT_MAJOR, type ConnectionSpec, type NodeAddress } from './ConnectionSpec.js';
import { connectExecutor, type ConnectedExecutor, type ConnectOptions } from './connectExecutor.js';

/** The Sentinels' own channel on every data node they monitor (`__sentinel__:hello`), not the application's. */
const SENTINEL_CHANNELS = '__sentinel__:';

/** A {@link Backend} over servers the harness started (or REDIS_URL's), stopped by `stop` on close. */
export class HarnessBackend implements Backend {
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
