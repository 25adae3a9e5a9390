// Each of Semaphore's requests counts once, however often it reaches Redis (issue 18): the same
// typed call sent twice, as a driver re-sends a request whose reply it lost, on real servers,
// both adapters, standalone and cluster. resend.test.ts makes the drivers do it through fault
// proxies; here the second copy is sent by hand, at any delay, and in either order.
import { BACKENDS, sleep, useBackendContext } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';
import { call, lockRuntime, type Call } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { addPermitsCommand } from '../src/commands/addPermits.js';
import { drainPermitsCommand } from '../src/commands/drainPermits.js';
import { returnPermitsCommand } from '../src/commands/returnPermits.js';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { permitRequestKey, Semaphore } from '../src/index.js';

const PERMITS = 4;
/**
 * A command timeout whose request markers ('returned', add, drain) remember for 2 × 1 s: a copy
 * sent right after the first must come within that life on a loaded machine too.
 */
const SHORT_TIMEOUT_MS = 1_000;
/** Past those markers' life. */
const PAST_THE_MARKER_MS = 2_500;

describe.each(BACKENDS)('Semaphore requests sent twice, on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);

  async function semaphoreOn(client: LockClient, label: string) {
    const semaphore = new Semaphore(client, ctx.uniqueName(label));
    await semaphore.trySetPermits(PERMITS);
    const runtime = lockRuntime(client);
    const request = runtime.newHoldId();
    const run = <Reply>(command: Call<Reply>) => runtime.run(command);
    const acquire = (permits: number) => run(call(tryAcquirePermitsCommand, { name: semaphore.name, permits, request }));
    const giveBack = () => run(call(returnPermitsCommand, { name: semaphore.name, request }));
    const markerTtl = async () => Number(await ctx.backend().command(['PTTL', permitRequestKey(semaphore.name, request)], semaphore.name));
    return { semaphore, runtime, request, run, acquire, giveBack, markerTtl };
  }

  it("an acquisition sent twice takes its permits once; its marker lives while they are held, then for a while as 'returned'", async () => {
    const { semaphore, acquire, giveBack, markerTtl } = await semaphoreOn(await ctx.client(), 'acquire-twice');
    expect(await acquire(3)).toBe('taken');
    expect(await acquire(3)).toBe('taken');
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await markerTtl()).toBe(-1);
    expect(await giveBack()).toBe(3);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
    expect(await markerTtl()).toBeGreaterThan(0);
  });

  it('a release sent twice gives back once; sent again after its mark expired, it still gives back nothing', async () => {
    const { semaphore, acquire, giveBack, markerTtl } = await semaphoreOn(await ctx.client({ commandTimeout: SHORT_TIMEOUT_MS }), 'release-twice');
    expect(await acquire(2)).toBe('taken');
    expect([await giveBack(), await giveBack()]).toEqual([2, 0]);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
    await sleep(PAST_THE_MARKER_MS);
    expect(await markerTtl()).toBe(-2);
    // The grant's marker is gone with its 'returned' mark: nothing says it holds anything.
    expect(await giveBack()).toBe(0);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
  });

  it('a give-back that arrives before its acquisition leaves a tombstone: the late copy takes nothing', async () => {
    const { semaphore, acquire, giveBack } = await semaphoreOn(await ctx.client(), 'tombstone');
    expect(await giveBack()).toBe(0);
    expect(await acquire(2)).toBe('givenBack');
    expect(await semaphore.availablePermits()).toBe(PERMITS);
    expect(await giveBack()).toBe(0);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
  });

  it('a copy of an acquisition that arrives after its tombstone expired takes the permits, and a give-back then returns them', async () => {
    const { semaphore, acquire, giveBack } = await semaphoreOn(await ctx.client({ commandTimeout: SHORT_TIMEOUT_MS }), 'past-tombstone');
    expect(await giveBack()).toBe(0);
    await sleep(PAST_THE_MARKER_MS);
    expect(await acquire(2)).toBe('taken');
    expect(await semaphore.availablePermits()).toBe(PERMITS - 2);
    expect(await giveBack()).toBe(2);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
  });

  it("addPermits and drainPermits sent twice count once and reply as the first did; sent again after the marker's life, they run again", async () => {
    const { semaphore, runtime, run } = await semaphoreOn(await ctx.client({ commandTimeout: SHORT_TIMEOUT_MS }), 'add-twice');
    const { name } = semaphore;
    const add = call(addPermitsCommand, { name, permits: 3, request: runtime.newHoldId() });
    expect([await run(add), await run(add)]).toEqual([PERMITS + 3, PERMITS + 3]);
    const drain = call(drainPermitsCommand, { name, request: runtime.newHoldId() });
    expect([await run(drain), await run(drain)]).toEqual([PERMITS + 3, PERMITS + 3]);
    expect(await semaphore.availablePermits()).toBe(0);
    await sleep(PAST_THE_MARKER_MS);
    expect(await run(add)).toBe(3);
    expect(await semaphore.availablePermits()).toBe(3);
  });

  it('the public operations each send a request id of their own, so repeated calls all count', async () => {
    const semaphore = new Semaphore(await ctx.client(), ctx.uniqueName('distinct'));
    await semaphore.trySetPermits(0);
    await semaphore.release(2);
    await semaphore.release(2);
    await semaphore.addPermits(1);
    await semaphore.addPermits(1);
    expect(await semaphore.availablePermits()).toBe(6);
    const holds = [await semaphore.acquire(3), await semaphore.acquire(3)];
    expect(await semaphore.tryAcquire()).toBeNull();
    await Promise.all(holds.map((held) => held.release()));
    expect([await semaphore.drainPermits(), await semaphore.drainPermits()]).toEqual([6, 0]);
  });
});
