import { afterEach } from 'vitest';
import type { BackendContext } from '../SuiteContext.js';
import type { RedissonConfig } from './RedissonConfig.js';
import { RedissonPeer } from './RedissonPeer.js';

/** Starts Redisson peers on a test context's backend. */
export interface RedissonPeers {
  /** A new peer (a Java process) on the context's backend; shut down after the test. */
  start(config?: RedissonConfig): Promise<RedissonPeer>;
}

/**
 * For a `describe` block that already has a {@link BackendContext}: every peer started in a test
 * is shut down after it, so no renewal timer, waiting thread or connection outlives the test.
 */
export function useRedissonPeers(ctx: BackendContext): RedissonPeers {
  const started: RedissonPeer[] = [];
  afterEach(async () => {
    await Promise.all(started.splice(0).map((peer) => peer.shutdown()));
  });
  return {
    async start(config = {}) {
      const peer = await RedissonPeer.start(ctx.backend(), config);
      started.push(peer);
      return peer;
    },
  };
}
