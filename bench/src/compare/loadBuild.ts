// A build of Deadbolt loaded from its checkout's directory, so that two builds (this checkout and
// an earlier commit's) can run the same work. Only what the comparison calls is typed: the plain
// lock's acquire and release, which every build since the first has had.
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/** The drivers a comparison runs on. */
export type ComparedDriver = 'ioredis' | 'node-redis';

interface HeldLike {
  release(): Promise<unknown>;
}

/** A lock handle of either build. */
export interface LockLike {
  acquire(): Promise<HeldLike>;
}

/** A lock client of either build, on a driver client of that build's own driver version. */
export interface LoadedClient {
  lock(name: string): LockLike;
  close(): Promise<void>;
}

interface CoreModule {
  LockClient: new (executor: unknown, options?: { watchdogTimeout?: number }) => LoadedClient;
}

interface Disconnects {
  disconnect(): void;
}

interface Quits {
  connect(): Promise<unknown>;
  quit(): Promise<unknown>;
}

/** A lock client of the build at `checkout` over `driver`, and how to close both. */
export async function loadClient(
  checkout: string,
  driver: ComparedDriver,
  port: number,
  options: { watchdogTimeout?: number } = {},
): Promise<{ client: LoadedClient; close: () => Promise<void> }> {
  const adapterDir = `${checkout}/packages/adapter-${driver}`;
  // Resolved from the adapter's folder: core and the driver are the ones that build installed.
  const resolve = createRequire(`${adapterDir}/package.json`).resolve;
  const load = <T>(path: string): Promise<T> => import(pathToFileURL(path).href) as Promise<T>;
  const core = await load<CoreModule>(resolve('@deadbolt/core'));
  if (driver === 'ioredis') {
    const { Redis } = await load<{ Redis: new (options: { host: string; port: number }) => Disconnects }>(
      resolve('ioredis'),
    );
    const { ioredisExecutor } = await load<{ ioredisExecutor: (redis: Disconnects) => unknown }>(
      `${adapterDir}/dist/index.js`,
    );
    const redis = new Redis({ host: '127.0.0.1', port });
    const client = new core.LockClient(ioredisExecutor(redis), options);
    const close = async () => {
      await client.close();
      redis.disconnect();
    };
    return { client, close };
  }
  const { createClient } = await load<{ createClient: (options: { socket: { host: string; port: number } }) => Quits }>(
    resolve('redis'),
  );
  const { nodeRedisExecutor } = await load<{ nodeRedisExecutor: (redis: Quits) => unknown }>(
    `${adapterDir}/dist/index.js`,
  );
  const redis = createClient({ socket: { host: '127.0.0.1', port } });
  await redis.connect();
  const client = new core.LockClient(nodeRedisExecutor(redis), options);
  const close = async () => {
    await client.close();
    await redis.quit();
  };
  return { client, close };
}
