/**
 * Redis for application tests: a throwaway `redis-server` per test file (or the one `REDIS_URL`
 * names), started and stopped by vitest's or jest's `beforeAll` and `afterAll`, and assertions
 * on Deadbolt locks (who holds a name, wait until it is released).
 *
 * @packageDocumentation
 */
export { startTestRedis, startTestRedisCluster, type TestRedis, type TestRedisCluster } from './TestRedis.js';
export { useTestRedis, useTestRedisCluster, type SuiteHooks } from './testHooks.js';
export { lockHolders, type LockHolder } from './lockHolders.js';
export { waitUntilReleased, type WaitUntilReleasedOptions } from './waitUntilReleased.js';
