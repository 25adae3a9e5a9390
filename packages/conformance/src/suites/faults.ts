import { RedisUnavailableError } from '@deadbolt/core';
import { expect, it } from 'vitest';
import type { SuiteContext } from '../SuiteContext.js';

/** Redis unreachable: typed errors within the configured timeout. */
export function faultSuite(ctx: SuiteContext): void {
  it('Redis paused gives a typed error within commandTimeout, and the lock works once it is back', async () => {
    const client = await ctx.client({ commandTimeout: 500 });
    const lock = ctx.lock(client, 'paused');
    await lock.isLocked(); // connect and load scripts first
    const backend = ctx.backend();
    const owners = backend.nodes;
    expect(owners.length).toBeGreaterThan(0);
    for (const node of owners) await node.pause();
    try {
      const started = performance.now();
      await expect(lock.tryAcquire()).rejects.toBeInstanceOf(RedisUnavailableError);
      expect(performance.now() - started).toBeLessThan(1_500);
    } finally {
      for (const node of owners) await node.resume();
    }
    // The attempt that timed out may run once Redis is back; it must not leave the lock taken.
    const held = await lock.acquire({ waitTime: 5_000 });
    expect(await lock.holdCount(held.owner)).toBe(1);
    await held.release();
    expect(await lock.isLocked()).toBe(false);
  });
}
