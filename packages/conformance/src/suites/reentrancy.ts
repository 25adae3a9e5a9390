import { LockNotHeldError } from '@deadbolt/core';
import { expect, it } from 'vitest';
import { forExclusiveKinds, type SuiteContext } from '../SuiteContext.js';
import { sleep } from '../timing.js';

/** Reentrancy, hold counts, ownership and the TTL a lock carries. */
export function reentrancySuite(ctx: SuiteContext): void {
  // A shared kind (a read lock) lets owners in together, so these tests do not apply to it.
  const exclusiveIt = forExclusiveKinds(ctx);

  it('re-enters within a withLock scope and counts holds', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'scope');
    await lock.withLock(async () => {
      expect(await lock.holdCount()).toBe(1);
      await lock.withLock(async () => {
        expect(await lock.holdCount()).toBe(2);
        expect(await lock.isHeldBy()).toBe(true);
      });
      expect(await lock.holdCount()).toBe(1);
    });
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt(
    'a withLock scope re-enters only its own lock: tasks inside it still exclude each other on another',
    async () => {
      const client = await ctx.client();
      const outer = ctx.lock(client, 'outer');
      const inner = ctx.lock(client, 'inner');
      await outer.withLock(async () => {
        let inside = 0;
        let most = 0;
        await Promise.all(
          [0, 1, 2].map(() =>
            inner.withLock(async () => {
              most = Math.max(most, ++inside);
              await sleep(5);
              inside--;
            }),
          ),
        );
        expect(most).toBe(1);
      });
    },
  );

  exclusiveIt('re-enters with an explicit owner and excludes every other owner', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'explicit');
    const first = await lock.acquire({ owner: 'job-1' });
    const second = await lock.acquire({ owner: 'job-1', waitTime: 0 });
    expect(await lock.holdCount('job-1')).toBe(2);
    expect(await lock.isHeldBy('job-2')).toBe(false);
    expect(await lock.tryAcquire({ owner: 'job-2' })).toBeNull();
    expect(await lock.tryAcquire()).toBeNull();
    await second.release();
    expect(await lock.holdCount('job-1')).toBe(1);
    expect(await lock.isLocked()).toBe(true);
    await first.release();
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt('an owner on another client instance is another owner', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('clients');
    await using held = await ctx.lockNamed(one, name).acquire({ owner: 'same' });
    expect(await ctx.lockNamed(two, name).tryAcquire({ owner: 'same' })).toBeNull();
    expect(held.owner).toBe('same');
  });

  exclusiveIt('sets the TTL on lock and re-entry, never shortening it for the other holds of the owner', async () => {
    const client = await ctx.client({ watchdogTimeout: 30_000 });
    const lock = ctx.lock(client, 'ttl');
    const outer = await lock.acquire({ owner: 'ttl', leaseTime: 5_000 });
    expectNear(await lock.remainingTtl(), 5_000);
    const inner = await lock.acquire({ owner: 'ttl' });
    expectNear(await lock.remainingTtl(), 30_000);
    await inner.release();
    expectNear(await lock.remainingTtl(), 30_000);
    await outer.release();
    expect(await lock.remainingTtl()).toBeNull();
  });

  it('a second release of the same hold throws not-held and changes nothing', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'double');
    const first = await lock.acquire({ owner: 'o' });
    const second = await lock.acquire({ owner: 'o' });
    await second.release();
    await expect(second.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await lock.holdCount('o')).toBe(1);
    await first.release();
  });

  it('await using releases the hold at the end of the block', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'using');
    {
      await using held = await lock.acquire();
      expect(held.released).toBe(false);
      expect(await lock.isLocked()).toBe(true);
    }
    expect(await lock.isLocked()).toBe(false);
  });
}

function expectNear(ttl: number | null, lease: number): void {
  expect(ttl).not.toBeNull();
  expect(ttl).toBeGreaterThan(lease - 2_000);
  expect(ttl).toBeLessThanOrEqual(lease);
}
