import { startCluster } from './cluster/cluster.js';
import { useStandalone } from './topology/standalone.js';

/** A Redis server for a test run, from {@link startTestRedis}. */
export interface TestRedis {
  /** `redis://<host>:<port>`, ready for a driver. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** The redis-server's process id; `undefined` when the server came from `REDIS_URL`. */
  readonly pid: number | undefined;
  /** Stops the server by its pid and removes its files; leaves a `REDIS_URL` server alone. Idempotent. */
  stop(): Promise<void>;
}

/** A small Redis Cluster for a test run, from {@link startTestRedisCluster}: three masters, no replicas. */
export interface TestRedisCluster {
  /** Every node's address, for a cluster client's seed list. */
  readonly startupNodes: readonly { readonly host: string; readonly port: number }[];
  /** Stops every node by its pid and removes their files. Idempotent. */
  stop(): Promise<void>;
}

/**
 * The server a test should use: the one the `REDIS_URL` environment variable names when it is
 * set (a CI service, say), else a throwaway `redis-server` of its own on a free port, with no
 * persistence, bound to 127.0.0.1. A server it starts is stopped by `stop()`, and killed when the
 * test process exits if `stop()` was never reached.
 *
 * Needs a `redis-server` binary on `PATH` (or in the directory `DEADBOLT_REDIS_BIN_DIR` names),
 * or `REDIS_URL`. Without either, it runs Redis in a container if the application has
 * `testcontainers` and `@testcontainers/redis` installed and a container runtime answers.
 */
export async function startTestRedis(): Promise<TestRedis> {
  const target = await useStandalone();
  return {
    url: target.url,
    host: target.host,
    port: target.port,
    pid: target.node?.pid,
    stop: () => target.stop(),
  };
}

/**
 * Starts a 3-master Redis Cluster of throwaway `redis-server` processes on free ports and waits
 * until every node agrees on the slot map. Takes a few seconds; needs the `redis-server` binary
 * (see {@link startTestRedis}).
 */
export async function startTestRedisCluster(): Promise<TestRedisCluster> {
  const cluster = await startCluster();
  return { startupNodes: cluster.startupNodes, stop: () => cluster.stop() };
}
