import type { AdapterName, ConnectionSpec } from '@deadbolt/conformance/connect';
import type { LockClientOptions, ReplicaSyncOptions } from '@deadbolt/core';
import type { StoreAddress } from '../store/ResourceStore.js';
import type { ChaosRedis } from './ChaosRedis.js';

/**
 * How the workers of a chaos run reach the lock server and the store: a standalone server, or a
 * Sentinel deployment (`spec`, scenario 2) with the store over its Unix socket. Every chaos runner
 * takes it (the hammer, the semaphores, the latch).
 */
export interface ChaosReach {
  readonly adapter: AdapterName;
  /** The standalone lock server; the faults cut its host off. With `spec`, the first master. */
  readonly server: ChaosRedis;
  /** How the workers reach the lock server (through Sentinels, say); the standalone `server` when absent. */
  readonly spec?: ConnectionSpec;
  /** The server of what the workers count or guard, on a host no fault touches. */
  readonly store: ChaosRedis;
  /**
   * Whether the workers reach the store over its Unix socket, beyond every network fault (storage
   * that both sides of a split reach), rather than through the network.
   */
  readonly storeOverSocket?: boolean;
  /** The workers' replica sync (`LockClientOptions.replicaSync`); off when absent. */
  readonly replicaSync?: ReplicaSyncOptions;
}

/** A {@link ChaosReach} whose run reads the lock server back at the end (the semaphores, the latch). */
export interface ChaosReadBackReach extends ChaosReach {
  /** The master now (the one the Sentinels name after a failover); `server` when absent. */
  readonly serverNow?: () => Promise<ChaosRedis>;
}

/** How a worker's lock client connects to `server` alone. */
export function standaloneSpec(adapter: AdapterName, server: ChaosRedis): ConnectionSpec {
  return { adapter, topology: 'standalone', nodes: [server.address] };
}

/** How the workers' lock clients connect. */
export function workerSpecOf(reach: ChaosReach): ConnectionSpec {
  return reach.spec ?? standaloneSpec(reach.adapter, reach.server);
}

/** The workers' client options: `options`, with the run's replica sync when it has one. */
export function workerClientOptions(reach: ChaosReach, options: LockClientOptions): LockClientOptions {
  return reach.replicaSync === undefined ? options : { ...options, replicaSync: reach.replicaSync };
}

/** Where the workers reach the store. */
export function workerStoreOf(reach: ChaosReach): StoreAddress {
  return reach.storeOverSocket === true ? { path: reach.store.socketPath } : reach.store.address;
}

/** The lock server to read back at the end of a run. */
export function serverNowOf(reach: ChaosReadBackReach): Promise<ChaosRedis> {
  return reach.serverNow?.() ?? Promise.resolve(reach.server);
}
