import { startTestRedis, startTestRedisCluster, type TestRedis, type TestRedisCluster } from './TestRedis.js';

/**
 * The suite hooks of a test framework: vitest's and jest's `beforeAll` and `afterAll` both fit.
 * They are passed in rather than imported, so this package depends on neither framework.
 */
export interface SuiteHooks {
  beforeAll(fn: () => Promise<void>, timeout?: number): void;
  afterAll(fn: () => Promise<void>, timeout?: number): void;
}

/** Starting a cluster takes seconds: more than jest's default hook timeout of 5 s. */
const HOOK_TIMEOUT_MS = 60_000;

/**
 * Starts a server in `beforeAll` (as {@link startTestRedis}: `REDIS_URL`, or a throwaway
 * `redis-server`) and stops it in `afterAll`. Returns a function that gives the server inside
 * tests and later hooks: `const redis = useTestRedis({ beforeAll, afterAll })` at the top of a
 * test file, then `redis().url` in a `beforeAll`, `beforeEach` or test.
 */
export function useTestRedis(hooks: SuiteHooks): () => TestRedis {
  return useStarted(hooks, startTestRedis, 'useTestRedis');
}

/** As {@link useTestRedis}, for a 3-master cluster ({@link startTestRedisCluster}). */
export function useTestRedisCluster(hooks: SuiteHooks): () => TestRedisCluster {
  return useStarted(hooks, startTestRedisCluster, 'useTestRedisCluster');
}

function useStarted<T extends { stop(): Promise<void> }>(
  hooks: SuiteHooks,
  start: () => Promise<T>,
  what: string,
): () => T {
  let started: T | undefined;
  hooks.beforeAll(async () => {
    started = await start();
  }, HOOK_TIMEOUT_MS);
  hooks.afterAll(async () => {
    await started?.stop();
    started = undefined;
  }, HOOK_TIMEOUT_MS);
  return () => {
    if (started === undefined)
      throw new Error(
        `${what}: the server starts in beforeAll and stops in afterAll; use it in a test or hook between them`,
      );
    return started;
  };
}
