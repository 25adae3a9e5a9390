// Each of Semaphore's requests counts once, however often it reaches Redis (issues 18 and 30): the
// same typed call sent twice, on real servers, every adapter, standalone and cluster. A second
// send by hand carries a deadline of its own, so it stands for a copy that arrives before the
// first one's deadline, in either order; resend.test.ts makes the drivers and the network deliver
// copies, late ones too, through fault proxies.
import { BACKENDS, useBackendContext } from '@deadbolt/conformance';
import type { LockClient } from '@deadbolt/core';
import { call, holdMarkersKey, lockRuntime, requestRecordKey, type Call } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { addPermitsCommand } from '../src/commands/addPermits.js';
import { drainPermitsCommand } from '../src/commands/drainPermits.js';
import { returnPermitsCommand } from '../src/commands/returnPermits.js';
import { tryAcquirePermitsCommand } from '../src/commands/tryAcquirePermits.js';
import { trySetPermitsCommand } from '../src/commands/trySetPermits.js';
import { Semaphore } from '../src/index.js';

const PERMITS = 4;
/** The command timeout of these clients: records live until a deadline about this far off, or twice it. */
const COMMAND_TIMEOUT_MS = 5_000;
/** A TTL far longer than a test, for a semaphore set the way a Java trySetPermits(n, ttl) sets it. */
const SEMAPHORE_TTL_MS = 600_000;

describe.each(BACKENDS)('Semaphore requests sent twice, on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useBackendContext(adapter, topology);
  const pttl = (key: string, name: string) => ctx.backend().command(['PTTL', key], name).then(Number);

  async function semaphoreOn(client: LockClient, label: string) {
    const semaphore = new Semaphore(client, ctx.uniqueName(label));
    await semaphore.trySetPermits(PERMITS);
    const runtime = lockRuntime(client);
    const hold = runtime.newHoldId();
    const run = <Reply>(command: Call<Reply>) => runtime.run(command);
    const acquire = (permits: number) =>
      run(call(tryAcquirePermitsCommand, { name: semaphore.name, permits, hold })).then((reply) => reply.outcome);
    const giveBack = () => run(call(returnPermitsCommand, { name: semaphore.name, hold }));
    const recordTtl = () => pttl(requestRecordKey(semaphore.name, hold), semaphore.name);
    const held = () => ctx.backend().command(['HGET', holdMarkersKey(semaphore.name), hold], semaphore.name);
    return { client, semaphore, runtime, run, acquire, giveBack, recordTtl, held };
  }

  it('an attempt sent twice takes its permits once, held under its hold id for as long as they are held; its record lives until its deadline', async () => {
    const { semaphore, acquire, giveBack, recordTtl, held } = await semaphoreOn(
      await ctx.client({ commandTimeout: COMMAND_TIMEOUT_MS }),
      'acquire-twice',
    );
    expect(await acquire(3)).toBe('taken');
    expect(await acquire(3)).toBe('taken');
    expect(await semaphore.availablePermits()).toBe(1);
    expect(await held()).toBe('3');
    // The hold is the permits held: no TTL while the semaphore has none.
    expect(await pttl(holdMarkersKey(semaphore.name), semaphore.name)).toBe(-1);
    expect(await recordTtl()).toBeGreaterThan(0);
    expect(await recordTtl()).toBeLessThanOrEqual(2 * COMMAND_TIMEOUT_MS);
    expect(await giveBack()).toBe(3);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
    expect(await pttl(holdMarkersKey(semaphore.name), semaphore.name)).toBe(-2);
    expect(await recordTtl()).toBeGreaterThan(0);
  });

  it('a release sent twice gives back once and answers the first outcome both times', async () => {
    const { semaphore, acquire, giveBack } = await semaphoreOn(await ctx.client(), 'release-twice');
    expect(await acquire(2)).toBe('taken');
    expect([await giveBack(), await giveBack()]).toEqual([2, 2]);
    expect(await semaphore.availablePermits()).toBe(PERMITS);
  });

  it('a copy of an attempt that comes after its release takes nothing', async () => {
    const { semaphore, acquire, giveBack, held } = await semaphoreOn(await ctx.client(), 'after-release');
    expect(await acquire(2)).toBe('taken');
    expect(await giveBack()).toBe(2);
    expect(await acquire(2)).toBe('givenBack');
    expect(await semaphore.availablePermits()).toBe(PERMITS);
    expect(await held()).toBeNull();
  });

  it('a give-back that arrives before its attempt leaves the record claimed: the attempt takes nothing', async () => {
    const { semaphore, acquire, giveBack, recordTtl } = await semaphoreOn(await ctx.client(), 'give-back-first');
    expect(await giveBack()).toBe(0);
    expect(await recordTtl()).toBeGreaterThan(0);
    expect(await acquire(2)).toBe('givenBack');
    expect([await giveBack(), await semaphore.availablePermits()]).toEqual([0, PERMITS]);
  });

  it('a copy of an attempt that took nothing takes nothing, though the permits came back since', async () => {
    const { semaphore, acquire } = await semaphoreOn(await ctx.client(), 'too-few');
    expect(await acquire(PERMITS + 1)).toBe('tooFew');
    await semaphore.release(1);
    expect(await acquire(PERMITS + 1)).toBe('tooFew');
    expect(await semaphore.availablePermits()).toBe(PERMITS + 1);
  });

  it('addPermits, release(n), drainPermits and trySetPermits sent twice each count once and reply as the first did', async () => {
    const { client, semaphore, runtime, run } = await semaphoreOn(await ctx.client(), 'add-twice');
    const { name } = semaphore;
    const twice = async <Reply>(command: Call<Reply>) => [await run(command), await run(command)];
    expect(
      await twice(call(addPermitsCommand, { name, permits: 3, request: runtime.newHoldId(), ttl: 'clear' })),
    ).toEqual([PERMITS + 3, PERMITS + 3]);
    expect(
      await twice(call(addPermitsCommand, { name, permits: 1, request: runtime.newHoldId(), ttl: 'keep' })),
    ).toEqual([PERMITS + 4, PERMITS + 4]);
    expect(await twice(call(drainPermitsCommand, { name, request: runtime.newHoldId() }))).toEqual([
      PERMITS + 4,
      PERMITS + 4,
    ]);
    expect(await semaphore.availablePermits()).toBe(0);
    const other = ctx.uniqueName('set-twice');
    expect(await twice(call(trySetPermitsCommand, { name: other, permits: 2, request: runtime.newHoldId() }))).toEqual([
      true,
      true,
    ]);
    expect(await new Semaphore(client, other).availablePermits()).toBe(2);
  });

  it("the holds live as the semaphore does: with its TTL; addPermits and drainPermits drop both, as Redisson's SET does; release(n) keeps it", async () => {
    const client = await ctx.client();
    const semaphore = new Semaphore(client, ctx.uniqueName('ttl'));
    const { name } = semaphore;
    const holds = holdMarkersKey(name);
    // As Redisson's trySetPermits(n, timeToLive) sets it.
    await ctx.backend().command(['SET', name, PERMITS, 'PX', SEMAPHORE_TTL_MS], name);
    const held = await semaphore.acquire(2);
    expect(await pttl(holds, name)).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
    await semaphore.release(1);
    expect(await pttl(name, name)).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
    await semaphore.addPermits(1);
    expect([await pttl(name, name), await pttl(holds, name)]).toEqual([-1, -1]);
    await ctx.backend().command(['PEXPIRE', name, SEMAPHORE_TTL_MS], name);
    const more = await semaphore.acquire(1);
    expect(await pttl(holds, name)).toBeGreaterThan(SEMAPHORE_TTL_MS / 2);
    expect(await semaphore.drainPermits()).toBe(3);
    expect([await pttl(name, name), await pttl(holds, name)]).toEqual([-1, -1]);
    await Promise.all([held.release(), more.release()]);
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
    expect([await semaphore.trySetPermits(1), await semaphore.trySetPermits(1)]).toEqual([false, false]);
  });
});
