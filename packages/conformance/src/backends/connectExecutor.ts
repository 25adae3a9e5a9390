// An executor of the spec's adapter over a driver client made for it: what a backend hands a
// test, and what a child process builds from the spec it was given.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
import type { Executor } from '@deadbolt/core';
import { DEFAULT_MAJOR, type ConnectionSpec, type DriverMajor, type RespVersion } from './ConnectionSpec.js';
import { connectClient } from './driverClient.js';

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

/** An executor over a driver client made for it. */
export interface ConnectedExecutor {
  readonly executor: Executor;
  /** Sends PING through the driver client itself, not through the executor's connections. */
  readonly ping: () => Promise<unknown>;
  /** Closes the executor, then the driver client. */
  readonly close: () => Promise<void>;
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
