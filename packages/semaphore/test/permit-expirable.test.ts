// PermitExpirableSemaphore on real servers, every adapter, standalone, cluster and Sentinel
// (issue 18): permits with ids and leases, released by id from anywhere, reclaimed when their
// lease ends, renewed by the watchdog, waited for by pub/sub and until the earliest lease ends;
// waits end by time, abort and close, and leave nothing behind.
import {
  BACKENDS_WITH_SENTINEL,
  eventually,
  RENEWED_WATCHDOG_MS,
  sleep,
  useBackendContext,
  waitersAsleep,
  type BackendContext,
} from '@deadbolt/conformance';
import {
  ClientClosedError,
  InvalidArgumentError,
  LockLostError,
  LockNotHeldError,
  type LockClient,
} from '@deadbolt/core';
import { call, lockRuntime, type LockRuntime } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { expirableReleaseCommand } from '../src/commands/expirableRelease.js';
import { expirableRenewCommand } from '../src/commands/expirableRenew.js';
import { expirableTryAcquireCommand } from '../src/commands/expirableTryAcquire.js';
import { expirableUpdateLeaseCommand } from '../src/commands/expirableUpdateLease.js';
import { newPermitIds } from '../src/permitIds.js';
import { PermitExpirableSemaphore, PermitWaitTimeoutError, type ExpirablePermitAcquireOptions } from '../src/index.js';

/** How many permits the semaphore's `{name}:timeout` set holds. */
const heldCount = (ctx: BackendContext, semaphore: PermitExpirableSemaphore) =>
  ctx.backend().command(['ZCARD', semaphore.timeoutsKey], semaphore.name);

/** When the earliest lease of the semaphore's held permits ends (wall-clock ms). */
const scoreOf = async (ctx: BackendContext, semaphore: PermitExpirableSemaphore) =>
  Number(
    (
      (await ctx.backend().command(['ZRANGE', semaphore.timeoutsKey, 0, 0, 'WITHSCORES'], semaphore.name)) as string[]
    )[1],
  );

/** Renews the permits `field` of `hold` once, as the watchdog does. */
const renew = (runtime: LockRuntime, name: string, hold: string, lease: number, field: string) =>
  runtime.run(call(expirableRenewCommand, { lease, holds: [{ name, field, hold }] }));

const noChannels = (...clients: LockClient[]) =>
  expect(clients.map((client) => client.activity().channels)).toEqual(clients.map(() => []));

describe.each(BACKENDS_WITH_SENTINEL)('PermitExpirableSemaphore on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  async function semaphoreOf(permits: number, label: string, client?: LockClient): Promise<PermitExpirableSemaphore> {
    const semaphore = new PermitExpirableSemaphore(client ?? (await ctx.client()), ctx.uniqueName(label));
    expect(await semaphore.trySetPermits(permits)).toBe(true);
    return semaphore;
  }

  it('takes permits under fresh 32-hex-digit ids, and gives them back once', async () => {
    const semaphore = await semaphoreOf(3, 'ids');
    const held = await semaphore.acquire(2);
    expect(held.permits).toBe(2);
    expect(held.ids).toHaveLength(2);
    for (const id of held.ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(new Set(held.ids).size).toBe(2);
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await heldCount(ctx, semaphore)).toBe(2);
    expect(held.leaseTime).toBeUndefined();
    await held.release();
    expect(held.released).toBe(true);
    await expect(held.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await semaphore.availablePermits()).toBe(3);
    expect(await heldCount(ctx, semaphore)).toBe(0);
    {
      await using one = await semaphore.acquire();
      expect(one.signal.aborted).toBe(false);
      expect(await semaphore.availablePermits()).toBe(2);
    }
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it('another process releases a permit by its id; the holder is told by the watchdog', async () => {
    const [a, b] = [await ctx.client({ watchdogTimeout: 300 }), await ctx.client()];
    const semaphore = await semaphoreOf(2, 'by-id', a);
    const held = await semaphore.acquire(2);
    const elsewhere = new PermitExpirableSemaphore(b, semaphore.name);
    const [first, second] = held.ids;
    await elsewhere.release(first!);
    expect(await elsewhere.tryRelease(first!)).toBe(false);
    await expect(elsewhere.release(first!)).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await elsewhere.availablePermits()).toBe(1);
    expect(await eventually(() => held.signal.aborted)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    // The release gives back what is still held, and reports that not all of it was.
    await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
    expect(await elsewhere.tryRelease(second!)).toBe(false);
    expect(await elsewhere.availablePermits()).toBe(2);
  });

  it("a permit's lease ends: the signal aborts, and the permit is reclaimed", async () => {
    const semaphore = await semaphoreOf(2, 'expiry');
    const held = await semaphore.acquire(2, { leaseTime: 200 });
    expect(held.leaseTime).toBe(200);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await eventually(() => held.signal.aborted)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    await sleep(20);
    expect(await semaphore.availablePermits()).toBe(2);
    expect(await heldCount(ctx, semaphore)).toBe(0);
    await expect(held.release()).rejects.toBeInstanceOf(LockLostError);
    expect(await semaphore.availablePermits()).toBe(2);
  });

  it('the watchdog keeps permits taken without a lease for as long as they are held', async () => {
    const semaphore = await semaphoreOf(1, 'watchdog', await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS }));
    const held = await semaphore.acquire();
    await sleep(3 * RENEWED_WATCHDOG_MS + 200);
    expect(held.signal.aborted).toBe(false);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await semaphore.tryAcquire()).toBeNull();
    await held.release();
    expect(await semaphore.availablePermits()).toBe(1);
  });

  it('updateLeaseTime moves the end of a lease, on the held permits and by id', async () => {
    const semaphore = await semaphoreOf(2, 'update');
    const held = await semaphore.acquire(1, { leaseTime: 200 });
    await held.updateLeaseTime(60_000);
    expect(held.leaseTime).toBe(60_000);
    await sleep(400);
    expect(held.signal.aborted).toBe(false);
    expect(await semaphore.availablePermits()).toBe(1);
    const other = await semaphore.acquire(1, { leaseTime: 60_000 });
    expect(await semaphore.updateLeaseTime(other.ids[0]!, 100)).toBe(true);
    expect(await eventually(async () => (await semaphore.availablePermits()) === 1)).toBe(true);
    expect(await semaphore.updateLeaseTime(other.ids[0]!, 100)).toBe(false);
    // Found gone: rejects with the loss its signal aborts with, as its release does.
    await expect(other.updateLeaseTime(1_000)).rejects.toBeInstanceOf(LockLostError);
    expect(other.signal.reason).toBeInstanceOf(LockLostError);
    await held.release();
    expect(await semaphore.availablePermits()).toBe(2);
  });

  it('a waiter is woken by a release, and by the end of a lease that nobody announces', async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const semaphore = await semaphoreOf(1, 'wake', a);
    const waiting = new PermitExpirableSemaphore(b, semaphore.name);
    const held = await semaphore.acquire();
    const waiter = waiting.acquire(1, { waitTime: 20_000 });
    await waitersAsleep(b);
    const released = performance.now();
    await held.release();
    const next = await waiter;
    expect(performance.now() - released).toBeLessThan(2_000);
    await next.release();
    const leased = await semaphore.acquire(1, { leaseTime: 300 });
    const started = performance.now();
    const expiryWaiter = waiting.acquire(1, { waitTime: 20_000 });
    await waitersAsleep(b);
    const taken = await expiryWaiter;
    // Woken when the lease ended, long before its own wait time would have run out.
    expect(performance.now() - started).toBeLessThan(10_000);
    // Told at the lease's end. Redis ends the lease by the wall clock the acquisition sent, the
    // holder's timer by the monotonic clock, and they may differ by a millisecond: the other
    // client's attempt can land first (seen once in CI, on GLIDE). The hammer allows 5 ms for it.
    expect(await eventually(() => leased.signal.aborted, 50, 1)).toBe(true);
    expect(await semaphore.availablePermits()).toBe(0);
    await taken.release();
    noChannels(a, b);
  });

  it('a waiter for 3 permits holds none of them while it waits, and takes all 3 once they are free', async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const semaphore = await semaphoreOf(3, 'multi', a);
    const holds = [await semaphore.acquire(), await semaphore.acquire(2)];
    const waiter = new PermitExpirableSemaphore(b, semaphore.name).acquire(3, { waitTime: 20_000 });
    await waitersAsleep(b);
    await holds[0]?.release();
    await sleep(100);
    // Woken by that release, it found 1 of 3 and took nothing: the permit is there for others.
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await heldCount(ctx, semaphore)).toBe(2);
    await holds[1]?.release();
    const held = await waiter;
    expect(held.permits).toBe(3);
    expect(await semaphore.availablePermits()).toBe(0);
    expect(await heldCount(ctx, semaphore)).toBe(3);
    noChannels(a, b);
    await held.release();
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it("acquire waits the client's defaultWaitTime when it gives no waitTime", async () => {
    const semaphore = await semaphoreOf(1, 'default-wait', await ctx.client({ defaultWaitTime: 200 }));
    const timedOut = await semaphore.acquire(2).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(PermitWaitTimeoutError);
    expect(timedOut).toMatchObject({ permits: 2, waitTime: 200 });
  });

  it('a wait that runs out, an abort and tryAcquire take nothing and leave nothing behind', async () => {
    const client = await ctx.client();
    const semaphore = await semaphoreOf(1, 'timeout', client);
    const timedOut = await semaphore.acquire(2, { waitTime: 200 }).catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(PermitWaitTimeoutError);
    expect(timedOut).toMatchObject({ permits: 2, waitTime: 200, lockName: semaphore.name });
    expect(await semaphore.tryAcquire(2)).toBeNull();
    expect(await semaphore.tryAcquire(2, { waitTime: 100, leaseTime: 1_000 })).toBeNull();
    const controller = new AbortController();
    const aborted = semaphore.acquire(2, { signal: controller.signal });
    await waitersAsleep(client);
    controller.abort(new Error('shutting down'));
    await expect(aborted).rejects.toThrow('shutting down');
    await expect(semaphore.tryAcquire(1, { signal: AbortSignal.abort(new Error('already')) })).rejects.toThrow(
      'already',
    );
    noChannels(client);
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await heldCount(ctx, semaphore)).toBe(0);
  });

  it('closing the client ends its waits with ClientClosedError and tells its holders', async () => {
    const client = await ctx.client();
    const semaphore = await semaphoreOf(1, 'close', client);
    const held = await semaphore.acquire();
    const waits = [semaphore.acquire(), semaphore.tryAcquire(1, { waitTime: 20_000 })];
    await waitersAsleep(client);
    // Expected before the close rejects them, or the rejections are unhandled while close runs.
    const closedOut = waits.map((wait) => expect(wait).rejects.toBeInstanceOf(ClientClosedError));
    await client.close();
    await Promise.all(closedOut);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    noChannels(client);
    await expect(semaphore.availablePermits()).rejects.toBeInstanceOf(ClientClosedError);
  });

  it('a re-sent acquire or release counts once; renewal neither brings back a reclaimed permit nor shortens a lease; a copy of an acquisition after its release takes nothing', async () => {
    const client = await ctx.client();
    const runtime = lockRuntime(client);
    const semaphore = await semaphoreOf(3, 'resent', client);
    const { name } = semaphore;
    const ids = newPermitIds(2);
    const hold = runtime.newHoldId();
    const acquire = call(expirableTryAcquireCommand, { name, ids, lease: 60_000, hold });
    expect(await runtime.run(acquire)).toEqual({ taken: true });
    expect(await runtime.run(acquire)).toEqual({ taken: true });
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await heldCount(ctx, semaphore)).toBe(2);
    const [first] = ids;
    const before = await scoreOf(ctx, semaphore);
    expect(await renew(runtime, name, hold, 1_000, ids.join(' '))).toEqual([true]);
    expect(await scoreOf(ctx, semaphore)).toBe(before);
    // A re-sent release (its first reply lost) returns the first outcome, and gives back nothing more.
    const release = call(expirableReleaseCommand, { name, ids, request: hold });
    expect(await runtime.run(release)).toBe(2);
    expect(await runtime.run(release)).toBe(2);
    expect(await semaphore.availablePermits()).toBe(3);
    // Another request for the same ids finds them given back.
    expect(await runtime.run(call(expirableReleaseCommand, { name, ids, request: runtime.newHoldId() }))).toBe(0);
    expect(await renew(runtime, name, hold, 60_000, first!)).toEqual([false]);
    // A copy of the acquisition that comes after its release finds its record and takes nothing.
    expect(await runtime.run(acquire)).toEqual({ taken: false, expiresAt: undefined });
    expect(await semaphore.availablePermits()).toBe(3);
    const leased = await semaphore.acquire(1, { leaseTime: 100 });
    await sleep(150);
    // Its lease ended: the renewal finds it gone (not yet reclaimed), and leaves it to be reclaimed.
    expect(await renew(runtime, name, runtime.newHoldId(), 60_000, leased.ids[0]!)).toEqual([false]);
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it("an update of a hold's lease that arrives after a later one changes nothing, and renewals leave the updated lease alone", async () => {
    const client = await ctx.client();
    const runtime = lockRuntime(client);
    const semaphore = await semaphoreOf(2, 'update-order', client);
    const { name } = semaphore;
    const ids = newPermitIds(1);
    const hold = runtime.newHoldId();
    expect(await runtime.run(call(expirableTryAcquireCommand, { name, ids, lease: 60_000, hold }))).toEqual({
      taken: true,
    });
    const update = (request: string, lease: number) =>
      runtime.run(call(expirableUpdateLeaseCommand, { name, ids, lease, hold, request }));
    const [earlier, later] = [runtime.newHoldId(), runtime.newHoldId()];
    const sent = Date.now();
    expect(await update(later, 20_000)).toBe(true);
    const updated = await scoreOf(ctx, semaphore);
    expect(updated - sent).toBeGreaterThanOrEqual(20_000);
    expect(updated - sent).toBeLessThan(21_000);
    expect(await update(earlier, 60_000)).toBe(true);
    expect(await update(later, 60_000)).toBe(true);
    expect(await renew(runtime, name, hold, 60_000, ids[0]!)).toEqual([true]);
    expect(await scoreOf(ctx, semaphore)).toBe(updated);
    // Another hold's renewal is not held back by this one's record.
    expect(await renew(runtime, name, runtime.newHoldId(), 60_000, ids[0]!)).toEqual([true]);
    expect(await scoreOf(ctx, semaphore)).toBeGreaterThan(updated);
  });

  it('refuses bad input, naming the argument, before anything reaches Redis', async () => {
    const client = await ctx.client();
    const name = ctx.uniqueName('input');
    const semaphore = new PermitExpirableSemaphore(client, name);
    type Refusal = [() => Promise<unknown>, string];
    const refusals: Refusal[] = [
      ...[0, -1, 1.5, 2 ** 53, NaN, '3'].map((bad): Refusal => [() => semaphore.acquire(bad as number), 'permits']),
      [() => semaphore.tryAcquire(0), 'permits'],
      [() => semaphore.trySetPermits(-1), 'permits'],
      [() => semaphore.addPermits(0.5), 'permits'],
      [() => semaphore.acquire(1, { leaseTime: 0 }), 'options.leaseTime'],
      [() => semaphore.tryAcquire(1, { leaseTime: NaN }), 'options.leaseTime'],
      [() => semaphore.acquire(1, { waitTime: -1 }), 'options.waitTime'],
      [() => semaphore.tryAcquire(1, { signal: 'stop' as unknown as AbortSignal }), 'options.signal'],
      [() => semaphore.acquire(1, { lease: 10 } as unknown as ExpirablePermitAcquireOptions), 'options.lease'],
      ...['', 'abc', 'zz', 42].map((bad): Refusal => [() => semaphore.release(bad as string), 'permitId']),
      [() => semaphore.tryRelease('0g'), 'permitId'],
      [() => semaphore.updateLeaseTime('x', 10), 'permitId'],
      [() => semaphore.updateLeaseTime('00ff', -1), 'leaseTime'],
    ];
    for (const [refused, argument] of refusals)
      await expect(refused()).rejects.toMatchObject({ name: 'InvalidArgumentError', argument });
    const held = await semaphore.trySetPermits(1).then(() => semaphore.acquire());
    await expect(held.updateLeaseTime(0)).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'leaseTime',
    });
    await held.release();
    expect(() => new PermitExpirableSemaphore(client, '')).toThrow(InvalidArgumentError);
    expect(() => new PermitExpirableSemaphore({} as LockClient, name)).toThrow(/Invalid argument client/);
    expect(await ctx.backend().command(['EXISTS', `{${name}}:timeout`], name)).toBe(0);
    noChannels(client);
  });
});
