import { InvalidArgumentError, LockLostError } from '@deadbolt/core';
import { expect, it } from 'vitest';
import { forExclusiveKinds, type SuiteContext } from '../SuiteContext.js';
import { eventually, sleep } from '../timing.js';

/**
 * Holds of one owner share one Redis TTL (the owner model's rule 5), and owners the library
 * generates never meet owners a user names (rule 4). Each test here took a lock for two owners
 * at once before these rules were enforced.
 */
export function sharedHoldsSuite(ctx: SuiteContext): void {
  const exclusiveIt = forExclusiveKinds(ctx);

  exclusiveIt("releasing a watchdog re-entry keeps the outer hold's longer fixed lease", async () => {
    const holder = await ctx.client({ watchdogTimeout: 1_000 });
    const rival = await ctx.client();
    const name = ctx.uniqueName('mixed-outer-lease');
    const lock = ctx.lockNamed(holder, name);
    const outer = await lock.acquire({ owner: 'o', leaseTime: 5_000 });
    const inner = await lock.acquire({ owner: 'o' });
    await inner.release();
    // Past the watchdog's lease: the outer hold still believes it holds for 5 s.
    await sleep(1_500);
    expect(outer.signal.aborted).toBe(false);
    expect(await ctx.lockNamed(rival, name).tryAcquire()).toBeNull();
    expect(await lock.remainingTtl()).toBeGreaterThan(2_000);
    await outer.release();
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt("releasing a short fixed-lease re-entry keeps the outer watchdog hold's lease", async () => {
    const holder = await ctx.client({ watchdogTimeout: 1_000 });
    const rival = await ctx.client();
    const name = ctx.uniqueName('mixed-inner-lease');
    const lock = ctx.lockNamed(holder, name);
    const outer = await lock.acquire({ owner: 'o' });
    const inner = await lock.acquire({ owner: 'o', leaseTime: 200 });
    await inner.release();
    await sleep(500);
    expect(outer.signal.aborted).toBe(false);
    expect(await ctx.lockNamed(rival, name).tryAcquire()).toBeNull();
    await outer.release();
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt('a re-entry with a shorter lease does not shorten the lock', async () => {
    const client = await ctx.client({ watchdogTimeout: 30_000 });
    const lock = ctx.lock(client, 'shorter-reentry');
    const outer = await lock.acquire({ owner: 'o' });
    const inner = await lock.acquire({ owner: 'o', leaseTime: 2_000 });
    expect(await lock.remainingTtl()).toBeGreaterThan(25_000);
    await inner.release();
    expect(await lock.remainingTtl()).toBeGreaterThan(25_000);
    await outer.release();
    expect(await lock.remainingTtl()).toBeNull();
  });

  exclusiveIt(
    "extend only lengthens while another hold of the owner lives, and sets the lease exactly for the owner's only hold",
    async () => {
      const client = await ctx.client({ watchdogTimeout: 30_000 });
      const lock = ctx.lock(client, 'extend-shared');
      const outer = await lock.acquire({ owner: 'o' });
      const inner = await lock.acquire({ owner: 'o', leaseTime: 20_000 });
      await inner.extend(2_000);
      expect(await lock.remainingTtl()).toBeGreaterThan(25_000);
      await inner.release();
      await outer.extend(2_000, { stopWatchdog: true });
      const ttl = await lock.remainingTtl();
      expect(ttl).toBeGreaterThan(1_000);
      expect(ttl).toBeLessThanOrEqual(2_000);
      await outer.release();
    },
  );

  exclusiveIt('a watchdog renewal that lands after extend does not shorten the lease extend set', async () => {
    // The renewal tick (at 2 s) is sent while extend waits behind a busy server, so Redis runs
    // extend first and the renewal after it; the server is free again well before the watchdog
    // would have to tell the holder it could not renew (at 4 s).
    const client = await ctx.client({ watchdogTimeout: 6_000 });
    const rival = await ctx.client();
    const name = ctx.uniqueName('extend-renewal');
    const lock = ctx.lockNamed(client, name);
    const held = await lock.acquire();
    await sleep(1_500);
    const busy = busyServer(ctx, name, 1_000);
    await sleep(100);
    const extended = held.extend(10_000, { stopWatchdog: true });
    await Promise.all([busy, extended]);
    expect(await lock.remainingTtl()).toBeGreaterThan(8_000);
    // Past the end of the watchdog's lease: only extend's keeps the lock now.
    await sleep(5_000);
    expect(held.signal.aborted).toBe(false);
    expect(await ctx.lockNamed(rival, name).tryAcquire()).toBeNull();
    await held.release();
  });

  exclusiveIt(
    'a force-unlocked watchdog hold is told it lost the lock even when its owner takes the lock again',
    async () => {
      const client = await ctx.client({ watchdogTimeout: 600 });
      const lock = ctx.lock(client, 'forced-then-again');
      const held = await lock.acquire();
      expect(await lock.forceUnlock()).toBe(true);
      const again = await lock.acquire({ owner: held.owner });
      expect(await eventually(() => held.signal.aborted, 2_000)).toBe(true);
      expect(again.signal.aborted).toBe(false);
      await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
      expect(await lock.holdCount(held.owner)).toBe(1);
      await again.release();
      expect(await lock.isLocked()).toBe(false);
    },
  );

  exclusiveIt('clients that share a clientId on purpose each have their holds counted', async () => {
    const [one, two] = [
      await ctx.client({ clientId: 'shared-client-id' }),
      await ctx.client({ clientId: 'shared-client-id' }),
    ];
    const name = ctx.uniqueName('shared-client');
    const first = await ctx.lockNamed(one, name).acquire({ owner: 'w' });
    const second = await ctx.lockNamed(two, name).acquire({ owner: 'w' });
    const lock = ctx.lockNamed(one, name);
    expect(await lock.holdCount('w')).toBe(2);
    await first.release();
    expect(await lock.holdCount('w')).toBe(1);
    await second.release();
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt("a named owner never joins a generated owner's hold", async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'namespaces');
    const held = await lock.acquire();
    expect(held.owner).toMatch(/^#\d+$/);
    const [digits] = held.owner.slice(1).match(/\d+/) ?? [];
    expect(await lock.tryAcquire({ owner: String(digits) })).toBeNull();
    expect(await lock.holdCount(held.owner)).toBe(1);
    await held.release();
  });

  it('a generated owner id is refused as a name unless it is held, and re-enters on purpose while it is', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-back');
    const held = await lock.acquire();
    const again = await lock.acquire({ owner: held.owner });
    expect(await lock.holdCount(held.owner)).toBe(2);
    await again.release();
    await held.release();
    const refused = await lock.tryAcquire({ owner: held.owner }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(InvalidArgumentError);
    expect((refused as InvalidArgumentError).argument).toBe('options.owner');
    const made = await lock.tryAcquire({ owner: '#1234567' }).catch((error: unknown) => error);
    expect(made).toBeInstanceOf(InvalidArgumentError);
    expect(await lock.isLocked()).toBe(false);
  });

  it('a generated owner is released from use when its hold is lost', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'pass-back-lost');
    const held = await lock.acquire({ leaseTime: 100 });
    expect(await eventually(() => held.signal.aborted, 2_000)).toBe(true);
    await expect(lock.tryAcquire({ owner: held.owner })).rejects.toBeInstanceOf(InvalidArgumentError);
  });
}

/**
 * Keeps the server that owns `key` busy in a Lua loop for `ms`, from a connection of its own.
 * From Redis 7.2 (and in Valkey) TIME inside a script keeps the script's start time, so the loop
 * watches `os.clock()` (the server's CPU time, which the loop spends), which Redis 7.0 lacks.
 */
function busyServer(ctx: SuiteContext, key: string, ms: number): Promise<unknown> {
  const loop = `local os = rawget(_G, 'os')
    if os then local stop = os.clock() + ${ms / 1000}; repeat until os.clock() >= stop; return 1 end
    local t = redis.call('time'); local stop = t[1] * 1000000 + t[2] + ${ms * 1000}
    repeat t = redis.call('time') until t[1] * 1000000 + t[2] >= stop; return 1`;
  return ctx.backend().command(['EVAL', loop, '0'], key);
}
