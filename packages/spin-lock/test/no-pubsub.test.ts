// What sets the spin lock apart from every other kind (issue 18): its waiters poll, so nothing it
// does subscribes or publishes, on any node; and a waiter still takes the lock within about one
// backoff delay of its release, long before the holder's lease would have ended.
import { BACKENDS, useSuiteContext, type SuiteContext } from '@deadbolt/conformance';
import { SPIN_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { SpinLock } from '@deadbolt/spin-lock';
import { describe, expect, it } from 'vitest';

// The pub/sub commands a client or a script may run, as INFO commandstats names them.
const PUBSUB_STAT = /^cmdstat_(s?publish|p?subscribe|p?unsubscribe|ssubscribe|sunsubscribe):calls=(\d+)/gm;

/** Pub/sub commands run so far, summed over every node of the backend. */
async function pubsubCommands(ctx: SuiteContext): Promise<number> {
  let calls = 0;
  for (const node of ctx.backend().nodes) {
    const stats = String(await node.command('INFO', 'commandstats'));
    for (const match of stats.matchAll(PUBSUB_STAT)) calls += Number(match[2]);
  }
  return calls;
}

describe.each(BACKENDS)('SpinLock without pub/sub on $adapter/$topology', ({ adapter, topology }) => {
  // Servers of its own, so that every node's statistics are there to read.
  const ctx = useSuiteContext(subjectOf(SPIN_LOCK), adapter, topology, { dedicated: true });

  it('waiting, releasing, re-entering, renewing and force-unlocking run no pub/sub command anywhere', async () => {
    const [holderClient, waiterClient] = [await ctx.client({ watchdogTimeout: 600 }), await ctx.client()];
    const name = ctx.uniqueName('quiet');
    const holderLock = new SpinLock(holderClient, name);
    const lock = new SpinLock(waiterClient, name);
    const before = await pubsubCommands(ctx);

    const held = await holderLock.acquire();
    const inner = await holderLock.acquire({ owner: held.owner });
    const waiters = Array.from({ length: 5 }, () => lock.withLock(() => undefined, { waitTime: 20_000 }));
    const timedOut = lock.tryAcquire({ waitTime: 300 });
    expect(await timedOut).toBeNull();
    await inner.release();
    await new Promise((resolve) => setTimeout(resolve, 500)); // the watchdog renews meanwhile
    await held.release();
    await Promise.all(waiters);
    await holderLock.acquire({ owner: 'forced-out' });
    expect(await lock.forceUnlock()).toBe(true);
    expect(await lock.isLocked()).toBe(false);

    expect(await pubsubCommands(ctx)).toBe(before);
    expect(waiterClient.activity().channels).toEqual([]);
    expect(await ctx.backend().pubsubChannels()).toEqual([]);
    // The count does see pub/sub: the plain lock's release publishes.
    await (await waiterClient.lock(name).acquire()).release();
    expect(await pubsubCommands(ctx)).toBeGreaterThan(before);
  });

  it('a waiter takes the lock within about one backoff delay of its release, long before the lease ends', async () => {
    const [holderClient, waiterClient] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('prompt');
    const backoff = { initialDelay: 200, maxDelay: 200 };
    const held = await new SpinLock(holderClient, name, { backoff }).acquire({ leaseTime: 30_000 });
    const waiting = new SpinLock(waiterClient, name, { backoff }).acquire({ waitTime: 20_000 });
    await new Promise((resolve) => setTimeout(resolve, 700));
    const released = performance.now();
    await held.release();
    const next = await waiting;
    // At most one 200 ms sleep and one attempt after the release, with room for a loaded machine;
    // waiting for the lease would take 30 s.
    expect(performance.now() - released).toBeLessThan(5_000);
    await next.release();
  });
});
