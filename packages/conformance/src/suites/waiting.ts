import { LockWaitTimeoutError } from '@deadbolt/core';
import { expect, it } from 'vitest';
import { waitersWaiting, wakesByPubSub } from '../kinds/index.js';
import type { SuiteContext } from '../SuiteContext.js';
import { scriptCalls } from '../publishes.js';
import { eventually, sleep } from '../timing.js';

/**
 * Waiting: wake-ups, wait limits, aborts, and what they leave behind. The tests about subscriptions
 * apply to kinds woken by pub/sub only (not to a spin lock's polling waiters).
 */
export function waitingSuite(ctx: SuiteContext): void {
  const { kind } = ctx.subject;
  // Not registered for a kind without pub/sub, rather than skipped.
  const itWithPubSub: (name: string, fn: () => Promise<void>) => void = wakesByPubSub(kind)
    ? (name, fn) => it(name, fn)
    : () => undefined;
  // Whether Redis comes to list `count` subscribed channels (a client counts a channel from the
  // moment it asks to subscribe, so its own count proves nothing about the server).
  const serverListsChannels = (count: number) =>
    eventually(async () => (await ctx.backend().pubsubChannels()).length === count, 3_000);
  const noChannelsLeft = () => serverListsChannels(0);

  it('a no-wait attempt fails at once while the lock is held', async () => {
    const client = await ctx.client();
    const lock = ctx.lock(client, 'nowait');
    await using _held = await lock.acquire();
    const started = performance.now();
    expect(await lock.tryAcquire()).toBeNull();
    expect(performance.now() - started).toBeLessThan(1_000);
    expect(client.activity().channels).toEqual([]);
  });

  it('a waiter in another client gets the lock promptly after release, long before the TTL', async () => {
    const { held, lock, waiterClient } = await heldElsewhere(ctx, 'handoff');
    const waiting = lock.acquire({ waitTime: 10_000 });
    await waitersWaiting(kind, waiterClient);
    await sleep(50);
    const released = performance.now();
    await held.release();
    const next = await waiting;
    expect(performance.now() - released).toBeLessThan(2_000);
    await next.release();
  });

  it("a client's defaultWaitTime bounds the acquire and withLock that give no waitTime; a call's own waitTime wins", async () => {
    const holder = await ctx.client();
    const waiter = await ctx.client({ defaultWaitTime: 300 });
    const name = ctx.uniqueName('default-wait');
    const held = await ctx.lockNamed(holder, name).acquire();
    const lock = ctx.lockNamed(waiter, name);
    const started = performance.now();
    const timedOut: unknown = await lock.acquire().catch((error: unknown) => error);
    expect(timedOut).toBeInstanceOf(LockWaitTimeoutError);
    expect((timedOut as LockWaitTimeoutError).waitTime).toBe(300);
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    await expect(lock.withLock(() => 'ran')).rejects.toBeInstanceOf(LockWaitTimeoutError);
    // The call's own wait outlasts the default, and the holder's release ends it.
    const waiting = lock.acquire({ waitTime: 10_000 });
    await sleep(600);
    await held.release();
    await (await waiting).release();
    expect(waiter.activity().channels).toEqual([]);
  });

  it('a timed-out wait throws and leaves nothing behind', async () => {
    const { held, holderLock, lock, waiterClient } = await heldElsewhere(ctx, 'timeout');
    await expect(lock.acquire({ waitTime: 300 })).rejects.toBeInstanceOf(LockWaitTimeoutError);
    expect(await lock.tryAcquire({ waitTime: 200 })).toBeNull();
    expect(waiterClient.activity().channels).toEqual([]);
    expect(await noChannelsLeft()).toBe(true);
    expect(await lock.holdCount(held.owner)).toBe(0);
    expect(await holderLock.isHeldBy(held.owner)).toBe(true);
    await held.release();
  });

  it('an aborted wait rejects with the reason and leaves nothing behind', async () => {
    const { held, lock, waiterClient } = await heldElsewhere(ctx, 'abort');
    const controller = new AbortController();
    const waiting = lock.acquire({ signal: controller.signal });
    await waitersWaiting(kind, waiterClient);
    controller.abort(new Error('user gave up'));
    await expect(waiting).rejects.toThrow('user gave up');
    await expect(lock.acquire({ signal: controller.signal })).rejects.toThrow('user gave up');
    expect(waiterClient.activity().channels).toEqual([]);
    expect(await noChannelsLeft()).toBe(true);
    await held.release();
    expect(await lock.isLocked()).toBe(false);
  });

  itWithPubSub('many local waiters share one subscription per channel', async () => {
    const { held, lock, waiterClient } = await heldElsewhere(ctx, 'shared-sub');
    const waits = Array.from({ length: 10 }, () => lock.withLock(() => undefined, { waitTime: 10_000 }));
    // One channel for the lock, or one per waiter for a kind that wakes waiters one by one.
    const channels = kind.waiterChannels === 'own' ? 10 : 1;
    await eventually(() => waiterClient.activity().channels.length === channels);
    expect(await serverListsChannels(channels)).toBe(true);
    // A moment later, no waiter has added one more.
    await sleep(100);
    expect(waiterClient.activity().channels).toHaveLength(channels);
    expect(await ctx.backend().pubsubChannels()).toHaveLength(channels);
    await held.release();
    await Promise.all(waits);
    expect(await noChannelsLeft()).toBe(true);
  });

  // Issue 33: the attempt after joining catches a release between a failed attempt and the
  // subscription; on a channel confirmed before the attempt was sent, with no message since,
  // there is nothing to catch.
  const itWithSharedChannel: (name: string, fn: () => Promise<void>) => void =
    kind.waiterChannels === 'shared' ? (name, fn) => it(name, fn) : () => undefined;
  itWithSharedChannel(
    'a waiter that joins a channel its client has subscribed already makes one attempt, then sleeps',
    async () => {
      const [holderClient, waiterClient] = [await ctx.client(), await ctx.client()];
      const name = ctx.uniqueName('joined');
      // A fixed lease: no renewal runs a script meanwhile.
      const held = await ctx.lockNamed(holderClient, name).acquire({ leaseTime: 60_000 });
      const lock = ctx.lockNamed(waiterClient, name);
      const first = lock.withLock(() => undefined, { waitTime: 20_000 });
      expect(await serverListsChannels(1)).toBe(true);
      await sleep(50);
      const before = await scriptCalls(ctx, name);
      const second = lock.withLock(() => undefined, { waitTime: 20_000 });
      await sleep(300);
      expect((await scriptCalls(ctx, name)) - before).toBe(1);
      await held.release();
      await Promise.all([first, second]);
    },
  );

  it('5000 contended cycles leave no channel subscribed', async () => {
    const [one, two] = [await ctx.client(), await ctx.client()];
    const names = Array.from({ length: 5 }, () => ctx.uniqueName('cycles'));
    const tasks = names.flatMap((name) =>
      [one, two].flatMap((client) => Array.from({ length: 5 }, () => ctx.lockNamed(client, name))),
    );
    // 50 tasks x 100 cycles over 5 names, each name contended by 10 tasks in two clients.
    await Promise.all(
      tasks.map(async (lock) => {
        for (let i = 0; i < 100; i++) await lock.withLock(() => undefined);
      }),
    );
    expect(one.activity().channels).toEqual([]);
    expect(two.activity().channels).toEqual([]);
    expect(await noChannelsLeft()).toBe(true);
  }, 120_000);

  itWithPubSub('a waiter whose subscriber connection is killed still gets the lock promptly', async () => {
    const { held, lock } = await heldElsewhere(ctx, 'sub-killed');
    const waiting = lock.acquire({ waitTime: 20_000 });
    // Subscribed on the server, so that the subscriber connection is there to kill.
    expect(await serverListsChannels(1)).toBe(true);
    expect(await ctx.backend().killClientsByName('deadbolt-subscriber')).toBeGreaterThan(0);
    await sleep(200);
    const released = performance.now();
    await held.release();
    const next = await waiting;
    // The lease is 30 s: getting in this fast means no wait for the TTL.
    expect(performance.now() - released).toBeLessThan(5_000);
    await next.release();
  });
}

/**
 * A lock of the kind under test held in one client, and the same lock as seen from a second
 * client that is to wait for it.
 */
async function heldElsewhere(ctx: SuiteContext, label: string) {
  const [holderClient, waiterClient] = [await ctx.client(), await ctx.client()];
  const name = ctx.uniqueName(label);
  const holderLock = ctx.lockNamed(holderClient, name);
  return { held: await holderLock.acquire(), holderLock, lock: ctx.lockNamed(waiterClient, name), waiterClient };
}
