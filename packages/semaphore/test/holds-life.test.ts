// The holds of a Semaphore, deadbolt_holds:{name}, live as the semaphore's key does (see
// semaphore-holds.lua), on real servers, every adapter, standalone and cluster: every script that
// reads or writes them gives them the key's TTL as it finds it, one that finds the key missing
// drops them, and a release that finds no mark gives nothing back and says so. The key's TTL is
// changed here by hand, as a Redisson peer changes it (redisson-interop.test.ts does it with the
// peer itself).
import { BACKENDS, sleep, useBackendContext } from '@deadbolt/conformance';
import { LockLostError, LockNotHeldError } from '@deadbolt/core';
import { call, holdMarkersKey, lockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { Semaphore } from '../src/index.js';

/** A TTL far longer than a test, as a Java service may give a semaphore. */
const SEMAPHORE_TTL_MS = 600_000;

describe.each(BACKENDS)('The holds of a Semaphore on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  async function semaphoreOf(label: string, permits: number) {
    const semaphore = new Semaphore(await ctx.client(), ctx.uniqueName(label));
    const { name } = semaphore;
    const holds = holdMarkersKey(name);
    const command = (...args: (string | number)[]) => ctx.backend().command(args, name);
    const pttl = async (key: string) => Number(await command('PTTL', key));
    // The key's TTL as a peer sets it: expire() (PEXPIRE), clearExpire() (PERSIST), delete() (DEL).
    const peer = {
      expire: (ms = SEMAPHORE_TTL_MS) => command('PEXPIRE', name, ms),
      clearExpire: () => command('PERSIST', name),
      delete: () => command('DEL', name),
    };
    expect(await semaphore.trySetPermits(permits)).toBe(true);
    return { semaphore, name, holds, command, pttl, peer };
  }

  it('every script that reads or writes the holds gives them the TTL it finds on the semaphore: an attempt that finds too few, a copy, a release, addPermits, trySetPermits', async () => {
    const { semaphore, name, holds, pttl, peer } = await semaphoreOf('resync', 3);
    const [first, second] = [await semaphore.acquire(1), await semaphore.acquire(1)];
    expect(await pttl(holds)).toBe(-1);
    const lives = async () => [await pttl(name), await pttl(holds)];
    const sameTtl = async () => {
      const [key, marks] = await lives();
      expect(key).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
      expect(Math.abs((marks ?? 0) - (key ?? 0))).toBeLessThan(1_000);
    };
    await peer.expire();
    expect(await semaphore.tryAcquire(5)).toBeNull();
    await sameTtl();
    await peer.clearExpire();
    await first.release();
    expect(await lives()).toEqual([-1, -1]);
    await peer.expire();
    expect(await semaphore.trySetPermits(9)).toBe(false);
    await sameTtl();
    await peer.clearExpire();
    await semaphore.release(1);
    expect(await lives()).toEqual([-1, -1]);
    // A copy of an attempt that took its permits (the same hold id, sent again).
    const runtime = lockRuntime(semaphore.client);
    const attempt = call(tryAcquirePermitsCommand, { name, permits: 1, hold: runtime.newHoldId() });
    expect((await runtime.run(attempt)).outcome).toBe('taken');
    await peer.expire();
    expect(await runtime.run(attempt)).toMatchObject({ outcome: 'taken' });
    await sameTtl();
    await second.release();
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it('a release that finds the semaphore missing drops the holds, gives nothing back, does not set the key afresh and rejects with LockLostError', async () => {
    const { semaphore, name, holds, command, peer } = await semaphoreOf('missing-release', 3);
    const [held, other] = [await semaphore.acquire(2), await semaphore.acquire(1)];
    await peer.delete();
    const refused = await held.release().catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(LockLostError);
    expect(refused).toMatchObject({ lockName: name, reason: 'gone' });
    expect(held.released).toBe(true);
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect([await command('EXISTS', name), await command('EXISTS', holds)]).toEqual([0, 0]);
    await expect(other.release()).rejects.toBeInstanceOf(LockLostError);
    expect(await command('EXISTS', name)).toBe(0);
  });

  it('an attempt, trySetPermits, addPermits and drainPermits that find the semaphore missing drop its holds: the permits went with it', async () => {
    for (const finds of ['tryAcquire', 'trySetPermits', 'addPermits', 'drainPermits'] as const) {
      const { semaphore, holds, command, peer } = await semaphoreOf(`missing-${finds}`, 3);
      const held = await semaphore.acquire(2);
      await peer.delete();
      if (finds === 'tryAcquire') expect(await semaphore.tryAcquire(1)).toBeNull();
      if (finds === 'trySetPermits') expect(await semaphore.trySetPermits(3)).toBe(true);
      if (finds === 'addPermits') await semaphore.addPermits(3);
      if (finds === 'drainPermits') expect(await semaphore.drainPermits()).toBe(0);
      expect(await command('EXISTS', holds), finds).toBe(0);
      // The key set afresh (or still missing) never gets the old permits.
      const before = await semaphore.availablePermits();
      await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
      expect(await semaphore.availablePermits(), finds).toBe(before);
    }
  });

  it('a release whose mark is gone while the semaphore exists gives nothing back and rejects with LockLostError', async () => {
    const { semaphore, holds, command } = await semaphoreOf('mark-gone', 3);
    const [held, other] = [await semaphore.acquire(2), await semaphore.acquire(1)];
    await command('DEL', holds);
    await expect(held.release()).rejects.toThrow(/no longer held/);
    expect(await semaphore.availablePermits()).toBe(0);
    await expect(other.release()).rejects.toBeInstanceOf(LockLostError);
    // `await using` gives back as release() does, and rejects as it does.
    await semaphore.release(1);
    const block = async () => {
      await using _held = await semaphore.acquire(1);
      await command('DEL', holds);
    };
    await expect(block()).rejects.toBeInstanceOf(LockLostError);
    expect(await semaphore.availablePermits()).toBe(0);
  });

  it('a holder looks at the TTL again before it ends: a TTL dropped or lengthened behind its back never expires its mark, and one that runs out takes the permits with it', async () => {
    const client = await ctx.client();
    const on = (name: string, ...args: (string | number)[]) => ctx.backend().command(args, name);
    const semaphoreOn = (label: string) => new Semaphore(client, ctx.uniqueName(label));
    const [dropped, lengthened, expiring] = [
      semaphoreOn('keeper-dropped'),
      semaphoreOn('keeper-lengthened'),
      semaphoreOn('keeper-expires'),
    ];
    const holds = await Promise.all(
      [dropped, lengthened, expiring].map(async (semaphore) => {
        await on(semaphore.name, 'SET', semaphore.name, 3, 'PX', 800);
        return semaphore.acquire(1);
      }),
    );
    await on(dropped.name, 'PERSIST', dropped.name);
    await on(lengthened.name, 'PEXPIRE', lengthened.name, SEMAPHORE_TTL_MS);
    await sleep(1_200);
    const holdsTtl = (semaphore: Semaphore) => on(semaphore.name, 'PTTL', holdMarkersKey(semaphore.name)).then(Number);
    expect(await holdsTtl(dropped)).toBe(-1);
    expect(await holdsTtl(lengthened)).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
    await holds[0]?.release();
    await holds[1]?.release();
    expect([await dropped.availablePermits(), await lengthened.availablePermits()]).toEqual([3, 3]);
    await expect(holds[2]?.release()).rejects.toBeInstanceOf(LockLostError);
    expect(await on(expiring.name, 'EXISTS', expiring.name, holdMarkersKey(expiring.name))).toBe(0);
  });
});
