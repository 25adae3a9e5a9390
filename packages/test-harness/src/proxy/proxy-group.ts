import type { RedisAddress } from '@deadbolt/testing/servers';
import {
  addCounters,
  type FaultControls,
  type PartitionOptions,
  type ProxyCounters,
  type ProxyDirection,
} from './controls.js';
import type { Delay } from './delay.js';
import { FaultProxy } from './fault-proxy.js';
import { registerProxy, unregisterProxy } from './registry.js';
import { RequestHold, type HoldOptions } from './request-hold.js';
import { RequestRule, type CutOptions, type RequestMatch } from './request-rule.js';

/**
 * Where a driver must connect instead of the address a server announces: `host:port` as Redis
 * announces it (in CLUSTER SLOTS, CLUSTER SHARDS, MOVED and ASK) to the proxy in front of it. In
 * the shape both drivers take: ioredis's `Cluster` option `natMap` and node-redis's
 * `createCluster` option `nodeAddressMap`.
 */
export type AddressMap = Readonly<Record<string, RedisAddress>>;

/**
 * One {@link FaultProxy} per server of a topology (a standalone server, or every node of a
 * cluster), driven together: every control applies to every proxy, a rule is shared (its shots
 * too), counters add up. From {@link startProxies}.
 */
export class ProxyGroup implements FaultControls {
  /** The proxies, in the order of the servers given. */
  readonly proxies: readonly FaultProxy[];
  /** The proxies' addresses, in the same order: seed nodes for a driver. */
  readonly addresses: readonly RedisAddress[];
  /** Each server's announced address to its proxy, for `natMap` or `nodeAddressMap`. */
  readonly addressMap: AddressMap;
  #closing: Promise<void> | undefined;

  private constructor(proxies: readonly FaultProxy[]) {
    this.proxies = proxies;
    this.addresses = proxies.map((proxy) => ({ host: proxy.host, port: proxy.port }));
    this.addressMap = Object.freeze(
      Object.fromEntries(proxies.map((proxy) => [addressOf(proxy.target), { host: proxy.host, port: proxy.port }])),
    );
    registerProxy(this);
  }

  /** For {@link startProxies}. */
  static async start(servers: readonly RedisAddress[]): Promise<ProxyGroup> {
    if (servers.length === 0) throw new RangeError('startProxies: no server given');
    const started = await Promise.allSettled(servers.map((server) => FaultProxy.start(server)));
    const proxies = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    const failure = started.find((result): result is PromiseRejectedResult => result.status === 'rejected');
    if (failure !== undefined) {
      await Promise.all(proxies.map((proxy) => proxy.close()));
      throw failure.reason;
    }
    return new ProxyGroup(proxies);
  }

  get counters(): ProxyCounters {
    return addCounters(this.proxies.map((proxy) => proxy.counters));
  }

  get partitioned(): boolean {
    return this.proxies.some((proxy) => proxy.partitioned);
  }

  /** Client connections open through any of the proxies right now. */
  get openConnections(): number {
    return this.proxies.reduce((sum, proxy) => sum + proxy.openConnections, 0);
  }

  /** The proxy in front of `server` (by its announced address). */
  proxyFor(server: RedisAddress): FaultProxy {
    const proxy = this.proxies.find((each) => each.target.host === server.host && each.target.port === server.port);
    if (proxy === undefined) throw new Error(`no proxy in front of ${addressOf(server)}`);
    return proxy;
  }

  setLatency(delay: number | Delay, directions?: readonly ProxyDirection[]): void {
    for (const proxy of this.proxies) proxy.setLatency(delay, directions);
  }

  cutAfterRequest(options: CutOptions): RequestRule {
    return this.#share(new RequestRule(options, 'cut'));
  }

  holdRequest(options: HoldOptions): RequestHold {
    return this.#share(new RequestHold(options));
  }

  watchRequests(match: RequestMatch): RequestRule {
    return this.#share(new RequestRule(match, 'watch'));
  }

  clearRules(): void {
    for (const proxy of this.proxies) proxy.clearRules();
  }

  partition(options?: PartitionOptions): void {
    for (const proxy of this.proxies) proxy.partition(options);
  }

  heal(): void {
    for (const proxy of this.proxies) proxy.heal();
  }

  async whenHealed(): Promise<void> {
    // A proxy may partition again while another heals (a cut rule's partition): wait for a moment
    // when none is.
    while (this.partitioned) await Promise.all(this.proxies.map((proxy) => proxy.whenHealed()));
  }

  reset(): number {
    return this.proxies.reduce((sum, proxy) => sum + proxy.reset(), 0);
  }

  /** Closes every proxy. Idempotent. */
  close(): Promise<void> {
    this.#closing ??= Promise.all(this.proxies.map((proxy) => proxy.close())).then(() => unregisterProxy(this));
    return this.#closing;
  }

  #share<Rule extends RequestRule>(rule: Rule): Rule {
    for (const proxy of this.proxies) proxy.addRule(rule);
    return rule;
  }
}

/**
 * Starts a fault proxy in front of each server: pass a standalone server, or every node of a
 * harness cluster (`cluster.nodes`, replicas included, so that a failover still goes through a
 * proxy). Connect a driver to `addresses` and, for a cluster, give it `addressMap` as `natMap`
 * (ioredis) or `nodeAddressMap` (node-redis), so that the nodes it learns of are reached through
 * their proxies too. Nodes must announce the address they were started on (harness processes do).
 */
export function startProxies(servers: readonly RedisAddress[]): Promise<ProxyGroup> {
  return ProxyGroup.start(servers);
}

function addressOf(address: RedisAddress): string {
  return `${address.host}:${address.port}`;
}
