import { startStandalone, type RedisNode } from '@deadbolt/test-harness';
import { afterAll, beforeAll } from 'vitest';

/**
 * A server of the enclosing `describe` block's own for the guarded resources (see
 * `ResourceStore`): no fault ever touches it, so what it holds at the end is what the holders did.
 */
export function useStore(): () => RedisNode {
  let store: RedisNode | undefined;
  beforeAll(async () => {
    store = await startStandalone();
  });
  afterAll(async () => {
    await store?.stop();
  });
  return () => {
    if (store === undefined) throw new Error('store not started');
    return store;
  };
}
