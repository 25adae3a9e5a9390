// RedLock acquisition over 3 and 5 independent servers, on both adapters: one holder at a time,
// a minority killed (kill -9), paused (SIGSTOP) or held by another owner does not stop it, a
// majority does, within nodeTimeout, and no failed acquisition leaves a key behind, not even one
// granted late.
import { BACKENDS, countOverlaps, eventually } from '@deadbolt/conformance';
import { LockWaitTimeoutError } from '@deadbolt/core';
import { quorum } from '@deadbolt/redlock';
import { describe, expect, it } from 'vitest';
import { useDeployments } from './deployments.js';

const ADAPTERS = [...new Set(BACKENDS.map(({ adapter }) => adapter))];
const NODE_TIMEOUT = 1_000;
// Far beyond what the tests allow, so that only nodeTimeout can explain a prompt answer.
const CLIENT_OPTIONS = { commandTimeout: 30_000 };
const OPTIONS = { nodeTimeout: NODE_TIMEOUT, retryDelay: 50, retryJitter: 40 };

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** What `promise` resolves with and how long it took, in ms. */
async function timed<T>(promise: Promise<T>): Promise<{ value: T; took: number }> {
  const started = performance.now();
  const value = await promise;
  return { value, took: performance.now() - started };
}

describe.each(ADAPTERS)('RedLock acquisition on %s', (adapter) => {
  const nodes = useDeployments(adapter, 5);
  const redlockOn = async (n: number, name: string) =>
    nodes.redlock(await nodes.clients(n, CLIENT_OPTIONS), name, OPTIONS);

  describe.each([3, 5])('over %i deployments', (n) => {
    // The most deployments that may fail: 1 of 3, 2 of 5.
    const minority = n - quorum(n);

    it('one holder at a time: it gets every node, and its release frees them all', async () => {
      const name = nodes.uniqueName('healthy');
      const [first, second] = [await redlockOn(n, name), await redlockOn(n, name)];
      const held = await first.tryAcquire();
      expect(held).not.toBeNull();
      expect(await eventually(() => held!.members.length === n)).toBe(true);
      expect(held!.validity).toBeGreaterThan(0);
      expect(held!.validity).toBeLessThanOrEqual(30_000 - 302);
      expect(await nodes.where(n, name)).toEqual(range(0, n));
      expect(await second.tryAcquire()).toBeNull();
      await held!.release();
      expect(await nodes.where(n, name)).toEqual([]);
      const next = await second.tryAcquire();
      expect(next).not.toBeNull();
      await next!.release();

      const redlocks = [first, second];
      const overlaps = await countOverlaps(6, 3, (task, critical) =>
        redlocks[task % 2]!.withLock(critical, { waitTime: 30_000 }),
      );
      expect(overlaps).toEqual({ runs: 18, mostAtOnce: 1 });
      expect(await nodes.where(n, name)).toEqual([]);
    });

    it.each(['kill', 'pause'] as const)(
      'with a minority down (%s) it acquires at once, and its release waits on no dead node',
      async (fault) => {
        const name = nodes.uniqueName(`minority-${fault}`);
        const redlock = await redlockOn(n, name);
        const down = range(0, minority);
        for (const index of down) await nodes.fault(index, fault);
        const { value: held, took } = await timed(redlock.tryAcquire());
        expect(held).not.toBeNull();
        expect(took).toBeLessThan(5 * NODE_TIMEOUT);
        expect(held!.members).toHaveLength(n - minority);
        const released = await timed(held!.release());
        expect(released.took).toBeLessThan(5 * NODE_TIMEOUT);
        for (const index of range(minority, n)) expect(await nodes.exists(index, name)).toBe(false);
        if (fault === 'pause') {
          // A paused node grants once it resumes, after the release: that grant is given back.
          for (const index of down) await nodes.resume(index);
          expect(await eventually(async () => (await nodes.where(n, name)).length === 0, 5_000)).toBe(true);
        }
      },
    );

    it.each(['kill', 'pause'] as const)(
      'with a majority down (%s) it fails within nodeTimeout and leaves no key behind',
      async (fault) => {
        const name = nodes.uniqueName(`majority-${fault}`);
        const redlock = await redlockOn(n, name);
        const down = range(0, minority + 1);
        for (const index of down) await nodes.fault(index, fault);
        const once = await timed(redlock.tryAcquire({ leaseTime: 10_000 }));
        expect(once.value).toBeNull();
        expect(once.took).toBeLessThan(5 * NODE_TIMEOUT);
        const waited = await timed(redlock.acquire({ waitTime: 1_500 }).catch((error: unknown) => error));
        expect(waited.value).toBeInstanceOf(LockWaitTimeoutError);
        expect(waited.took).toBeLessThan(1_500 + 5 * NODE_TIMEOUT);
        for (const index of range(minority + 1, n)) expect(await nodes.exists(index, name)).toBe(false);
        if (fault === 'pause') {
          // Every round's grants from the paused nodes arrive on resuming, and are given back.
          for (const index of down) await nodes.resume(index);
          expect(await eventually(async () => (await nodes.where(n, name)).length === 0, 5_000)).toBe(true);
        }
      },
    );

    it.each([
      ['a minority', minority, true],
      ['a majority', minority + 1, false],
    ])('with %s (%i) held by another owner it acquires: %s; their holds are left alone', async (_, taken, acquired) => {
      const name = nodes.uniqueName('held-elsewhere');
      const theirs = await Promise.all((await nodes.clients(taken)).map((client) => client.lock(name).acquire()));
      const held = await (await redlockOn(n, name)).tryAcquire();
      expect(held !== null).toBe(acquired);
      if (held) expect(held.members).toHaveLength(n - taken);
      await held?.release();
      expect(await nodes.where(n, name)).toEqual(range(0, taken));
      await Promise.all(theirs.map((hold) => hold.release()));
    });
  });
});
