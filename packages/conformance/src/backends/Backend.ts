// A running topology as the tests see it: clients of it, its fault proxies, and raw commands on
// its servers.
import type { Executor } from '@deadbolt/core';
import type { ClusterHandle, ProxyGroup, RedisNode, SentinelHandle } from '@deadbolt/test-harness';
import type { ConnectionSpec } from './ConnectionSpec.js';
import type { ConnectedExecutor, ConnectOptions } from './connectExecutor.js';

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
