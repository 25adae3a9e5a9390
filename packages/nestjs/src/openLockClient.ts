import { LockClient } from '@deadbolt/core';
import type { DeadboltModuleOptions } from './DeadboltModuleOptions.js';

/** The module's client, with what closes everything the module opened for it. */
export interface OpenedLockClient {
  readonly client: LockClient;
  close(): Promise<void>;
}

/**
 * Builds the `LockClient`. An executor is the application's: closing the client closes only
 * what the adapter opened. A URL gets an ioredis client of the module's own, loaded only then
 * (the driver and its adapter are optional peers), and quit after the client closes.
 */
export async function openLockClient(options: DeadboltModuleOptions): Promise<OpenedLockClient> {
  if ('executor' in options) {
    const client = new LockClient(options.executor, options.client);
    return { client, close: () => client.close() };
  }
  const [{ Redis }, { ioredisExecutor }] = await Promise.all([import('ioredis'), import('@deadbolt/adapter-ioredis')]);
  const redis = new Redis(options.url);
  const client = new LockClient(ioredisExecutor(redis), options.client);
  return {
    client,
    close: async () => {
      await client.close();
      await redis.quit();
    },
  };
}
