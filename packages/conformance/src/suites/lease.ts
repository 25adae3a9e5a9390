import { setTimeout as delay } from 'node:timers/promises';
import { InvalidArgumentError, LockLostError, LockNotHeldError, type LockLostEvent } from '@deadbolt/core';
import { expect, it } from 'vitest';
import { forExclusiveKinds, type SuiteContext } from '../SuiteContext.js';
import { eventually, RENEWED_WATCHDOG_MS, sleep } from '../timing.js';

/** Leases, the watchdog, and what a holder learns when its lock is lost. */
export function leaseSuite(ctx: SuiteContext): void {
  // A shared kind (a read lock) lets owners in together, so these tests do not apply to it.
  const exclusiveIt = forExclusiveKinds(ctx);

  exclusiveIt('a lease expires, the next owner gets in, and the old holder learns it lost the lock', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'lease');
    // Long enough that a loaded machine's stall cannot end it before the next call is refused.
    const old = await lock.acquire({ leaseTime: 500 });
    expect(await lock.tryAcquire({ waitTime: 0 })).toBeNull();
    const next = await lock.acquire({ waitTime: 3_000 });
    await eventually(() => old.signal.aborted, 1_000);
    expect(old.signal.reason).toBeInstanceOf(LockLostError);
    await expect(old.release()).rejects.toBe(old.signal.reason);
    await expect(old.release()).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await lock.isHeldBy(next.owner)).toBe(true);
    await next.release();
  });

  it('withLock rejects with a LockLostError when the lock was lost while its callback ran, also when the callback returned', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'lost-in-scope');
    // The holder is told: its fixed lease ends while the callback still runs.
    const told = await lock
      .withLock(() => sleep(400).then(() => 'done'), { leaseTime: 150 })
      .catch((error: unknown) => error);
    expect(told).toBeInstanceOf(LockLostError);
    // Deleted just before the callback returns: the release finds the hold gone.
    const found = await lock
      .withLock(async () => {
        expect(await lock.forceUnlock()).toBe(true);
        return 'done';
      })
      .catch((error: unknown) => error);
    expect(found).toBeInstanceOf(LockLostError);
    expect((found as LockLostError).reason).toBe('gone');
    expect(await lock.isLocked()).toBe(false);
    expect(client.activity()).toEqual({ renewing: 0, channels: [], handoffLocks: 0 });
  });

  it('withLock rejects with the LockLostError itself when the callback rejects because its signal aborted, whatever API the signal went through', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'lost-through-api');
    let signal: AbortSignal | undefined;
    // node:timers/promises rejects with an AbortError whose cause is the signal's reason.
    const timers = await lock
      .withLock(
        async (given) => {
          signal = given;
          await delay(5_000, undefined, { signal: given });
        },
        { leaseTime: 150 },
      )
      .catch((error: unknown) => error);
    expect(timers).toBeInstanceOf(LockLostError);
    expect(timers).toBe(signal?.reason);
    expect((timers as LockLostError).reason).toBe('leaseEnded');
    // An API that drops the reason: an AbortError of its own, without a cause.
    const dropped = await lock
      .withLock(
        (given) =>
          new Promise((_resolve, reject) =>
            given.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')), { once: true }),
          ),
        { leaseTime: 150 },
      )
      .catch((error: unknown) => error);
    expect(dropped).toBeInstanceOf(LockLostError);
    // An error of the callback's own, before any loss, stays its own.
    const failure = new Error('the callback failed');
    await expect(lock.withLock(() => Promise.reject(failure))).rejects.toBe(failure);
    expect(await lock.isLocked()).toBe(false);
  });

  it('await using a hold that was lost throws its LockLostError at the closing brace, inside a SuppressedError when the block threw too', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'lost-using');
    let lost: unknown;
    const quiet = async () => {
      await using held = await lock.acquire({ leaseTime: 150 });
      await sleep(400);
      lost = held.signal.reason;
    };
    const error: unknown = await quiet().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(LockLostError);
    expect(error).toBe(lost);
    const throwing = async () => {
      await using held = await lock.acquire({ leaseTime: 150 });
      await delay(5_000, undefined, { signal: held.signal });
    };
    const both: unknown = await throwing().catch((caught: unknown) => caught);
    expect(both).toMatchObject({ name: 'SuppressedError', error: expect.any(LockLostError) });
    expect(await lock.isLocked()).toBe(false);
  });

  it('the watchdog keeps a lock past three times its timeout and stops after release', async () => {
    const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const lock = ctx.lock(client, 'watchdog');
    const held = await lock.acquire();
    await sleep(3 * RENEWED_WATCHDOG_MS + 200);
    expect(held.signal.aborted).toBe(false);
    expect(await lock.isHeldBy(held.owner)).toBe(true);
    expect(await lock.remainingTtl()).toBeGreaterThan(0);
    await held.release();
    expect(client.activity().renewing).toBe(0);
    await sleep(400);
    expect(await lock.isLocked()).toBe(false);
  });

  it('renews every held lock of a slot with one call per tick', async () => {
    const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const tag = ctx.uniqueName('batch');
    const locks = Array.from({ length: 40 }, (_, i) => ctx.lockNamed(client, `{${tag}}:${i}`));
    const held = await Promise.all(locks.map((lock) => lock.acquire()));
    const calls = () => scriptCalls(ctx, `{${tag}}`);
    const before = await calls();
    await sleep(1_000);
    const during = (await calls()) - before;
    // About five ticks in a second; one renewal call per lock would be 200.
    expect(during).toBeGreaterThan(0);
    expect(during).toBeLessThan(30);
    await Promise.all(held.map((hold) => hold.release()));
  });

  it('extend sets a new lease from now and keeps the hold past its first lease', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'extend');
    const held = await lock.acquire({ leaseTime: 300 });
    await held.extend(5_000);
    expect(held.leaseTime).toBe(5_000);
    await sleep(500);
    expect(held.signal.aborted).toBe(false);
    expect(await lock.isHeldBy(held.owner)).toBe(true);
    expect(await lock.remainingTtl()).toBeGreaterThan(3_000);
    await held.extend(8_000);
    expect(await lock.remainingTtl()).toBeGreaterThan(6_000);
    await held.release();
    expect(await lock.isLocked()).toBe(false);
  });

  it('extend turns a watchdog hold into a fixed lease that then runs out, only when told to stop the watchdog', async () => {
    const client = await ctx.client({ watchdogTimeout: 300 });
    const lock = ctx.lock(client, 'extend-watchdog');
    const held = await lock.acquire();
    expect(held.leaseTime).toBeUndefined();
    expect(held.keptByWatchdog).toBe(true);
    for (const options of [undefined, {}, { stopWatchdog: false }]) {
      const refused: unknown = await held.extend(400, options).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InvalidArgumentError);
      expect((refused as InvalidArgumentError).argument).toBe('options.stopWatchdog');
    }
    // Nothing was sent: the watchdog still keeps the hold.
    expect(held.keptByWatchdog).toBe(true);
    await sleep(400);
    expect(held.signal.aborted).toBe(false);
    await held.extend(400, { stopWatchdog: true });
    expect(held.leaseTime).toBe(400);
    expect(held.keptByWatchdog).toBe(false);
    expect(await eventually(() => held.signal.aborted, 2_000)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    // Nothing renews it any more (a read hold's guard ended with its lease).
    expect(client.activity().renewing).toBe(0);
    expect(await eventually(async () => !(await lock.isLocked()), 2_000)).toBe(true);
    await expect(held.release()).rejects.toBe(held.signal.reason);
  });

  it('extend refuses a bad lease before Redis, and a hold that is released or gone', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'extend-refused');
    const held = await lock.acquire({ leaseTime: 10_000 });
    expect(held.keptByWatchdog).toBe(false);
    for (const bad of [0, -1, Number.NaN, Infinity, '100' as unknown as number]) {
      const error: unknown = await held.extend(bad).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(InvalidArgumentError);
      expect((error as InvalidArgumentError).argument).toBe('leaseTime');
    }
    expect(await lock.forceUnlock()).toBe(true);
    // Found gone: the extend rejects with the loss its signal aborts with, as a release would.
    const found: unknown = await held.extend(1_000).catch((error: unknown) => error);
    expect(found).toBeInstanceOf(LockLostError);
    expect(found).toBe(held.signal.reason);
    expect((found as LockLostError).reason).toBe('gone');
    expect(await lock.isLocked()).toBe(false);
    const again = await lock.acquire({ leaseTime: 10_000 });
    await again.release();
    await expect(again.extend(1_000)).rejects.toBeInstanceOf(LockNotHeldError);
    expect(await lock.isLocked()).toBe(false);
  });

  exclusiveIt(
    'maxHoldTime ends a watchdog hold: its signal aborts before the lock expires, and the next waiter gets it',
    async () => {
      const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
      const lost: LockLostEvent[] = [];
      client.on('lockLost', (event) => lost.push(event));
      const name = ctx.uniqueName('max-hold');
      const started = performance.now();
      const held = await ctx.lockNamed(client, name).acquire({ maxHoldTime: 1_500 });
      let abortedAt = Infinity;
      held.signal.addEventListener('abort', () => {
        abortedAt = performance.now();
      });
      const next = ctx.lockNamed(await ctx.client(), name).acquire({ waitTime: 5_000 });
      // Renewed past the watchdog's lease while under its limit, until 600 ms (one watchdog lease)
      // before the limit, when it gets a fixed lease ending at the limit.
      await sleep(700);
      expect(held.signal.aborted).toBe(false);
      expect(held.keptByWatchdog).toBe(true);
      const nextHeld = await next;
      const nextAt = performance.now();
      const reason: unknown = held.signal.reason;
      expect(reason).toBeInstanceOf(LockLostError);
      expect((reason as LockLostError).reason).toBe('maxHoldTimeReached');
      expect(lost.map((event) => event.reason)).toEqual(['maxHoldTimeReached']);
      expect(abortedAt - started).toBeGreaterThan(1_400);
      // The holder was told before the lock it held expired and went to the next one.
      expect(abortedAt).toBeLessThanOrEqual(nextAt);
      expect(nextAt - started).toBeLessThan(1_500 + RENEWED_WATCHDOG_MS);
      expect(client.activity().renewing).toBe(0);
      await expect(held.release()).rejects.toBe(reason);
      await nextHeld.release();
    },
  );

  it('maxHoldTime is refused with a leaseTime, and when not a positive whole number, before Redis', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'max-hold-refused');
    for (const options of [{ maxHoldTime: 1_000, leaseTime: 5_000 }, { maxHoldTime: 0 }, { maxHoldTime: 1.5 }]) {
      const refused: unknown = await lock.acquire(options).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(InvalidArgumentError);
      expect((refused as InvalidArgumentError).argument).toBe('options.maxHoldTime');
    }
    expect(await lock.isLocked()).toBe(false);
  });

  it('a lock deleted under its holder is reported through the signal and the lockLost event', async () => {
    const client = await ctx.client({ watchdogTimeout: 300 });
    const lost: LockLostEvent[] = [];
    client.on('lockLost', (event) => lost.push(event));
    const lock = ctx.lock(client, 'stolen');
    const held = await lock.acquire();
    expect(await lock.forceUnlock()).toBe(true);
    expect(await eventually(() => held.signal.aborted, 2_000)).toBe(true);
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    expect(lost.map((event) => event.key)).toContain(lock.name);
    expect(client.activity().renewing).toBe(0);
    // Renewal never re-acquires what is gone.
    expect(await lock.isLocked()).toBe(false);
    expect(held.keptByWatchdog).toBe(false);
    await expect(held.extend(1_000)).rejects.toBe(held.signal.reason);
    await expect(held.release()).rejects.toBe(held.signal.reason);
  });

  it('closing the client stops renewal: its holders are told and its lock expires', async () => {
    const observer = await ctx.client();
    const closing = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const name = ctx.uniqueName('closed');
    const held = await ctx.lockNamed(closing, name).acquire();
    await closing.close();
    expect(held.signal.reason).toBeInstanceOf(LockLostError);
    const lock = ctx.lockNamed(observer, name);
    expect(await lock.isLocked()).toBe(true);
    expect(await eventually(async () => !(await lock.isLocked()), 2_000)).toBe(true);
  });

  it('a release racing a renewal does not leave the lock renewed', async () => {
    // Releases land on and around renewal ticks (every 200 ms).
    const client = await ctx.client({ watchdogTimeout: RENEWED_WATCHDOG_MS });
    const lock = ctx.lock(client, 'race');
    for (let i = 0; i < 20; i++) {
      const held = await lock.acquire();
      await sleep(i % 3 === 0 ? 100 : 1);
      await held.release();
      expect(await lock.isLocked()).toBe(false);
    }
    await sleep(400);
    expect(await lock.isLocked()).toBe(false);
    expect(client.activity().renewing).toBe(0);
  });
}

// Script calls served by the node that owns `key`, from INFO commandstats.
async function scriptCalls(ctx: SuiteContext, key: string): Promise<number> {
  const info = String(await ctx.backend().command(['INFO', 'commandstats'], key));
  let total = 0;
  for (const match of info.matchAll(/cmdstat_(?:evalsha|eval):calls=(\d+)/g)) total += Number(match[1]);
  return total;
}
