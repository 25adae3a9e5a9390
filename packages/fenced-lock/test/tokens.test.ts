// Fencing tokens: one per acquisition, re-entries included, strictly increasing per lock name
// across owners, clients and processes.
import { BACKENDS, sleep, useSuiteContext, waitersAsleep } from '@deadbolt/conformance';
import { RedisUnavailableError } from '@deadbolt/core';
import { call, holdMarkersKey, lockCommands, lockRuntime } from '@deadbolt/core/kit';
import { FENCED_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { FencedLock } from '@deadbolt/fenced-lock';
import { afterEach, describe, expect, it } from 'vitest';
import { fencedAcquire } from '../src/commands/fencedAcquire.js';
import { fencedHandOff } from '../src/commands/fencedHandOff.js';
import { ChildProcess } from './child/ChildProcess.js';

describe.each(BACKENDS)('FencedLock tokens on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FENCED_LOCK), adapter, topology);
  afterEach(() => ChildProcess.killAll());

  it("every acquisition, a re-entry too, draws the counter's next value; currentToken reads it", async () => {
    const [a, b] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('sequence');
    const [lockA, lockB] = [new FencedLock(a, name), new FencedLock(b, name)];
    expect(await lockA.currentToken()).toBeNull();
    const first = await lockA.acquire({ owner: 'x' });
    const reentry = await lockA.acquire({ owner: 'x' });
    expect([first.token, reentry.token]).toEqual([1n, 2n]);
    expect(await lockA.holdCount('x')).toBe(2);
    // A failed attempt draws nothing.
    expect(await lockB.tryAcquire()).toBeNull();
    expect(await lockB.currentToken()).toBe(2n);
    await reentry.release();
    await first.release();
    const other = await lockB.withLock((_signal, held) => held.token);
    expect(other).toBe(3n);
    expect(await lockA.currentToken()).toBe(3n);
    await new FencedLock(a, name).withLock(async (_signal, outer) => {
      await using inner = await lockA.acquire();
      expect([outer.token, inner.token]).toEqual([4n, 5n]);
    });
  });

  it("keeps Redisson's layout: the plain lock's hash, and the counter in the lock's slot", async () => {
    const client = await ctx.client();
    const name = `{${ctx.uniqueName('layout')}}:orders`;
    const lock = new FencedLock(client, name);
    expect(lock.tokenKey).toBe(`redisson_lock_token:${name}`);
    const held = await lock.acquire({ owner: '7' });
    expect(await ctx.backend().command(['HGETALL', name], name)).toEqual([`${client.id}:7`, '1']);
    expect(await ctx.backend().command(['GET', lock.tokenKey], name)).toBe(String(held.token));
    await held.release();
    // Neither a release nor a force-unlock resets the counter: tokens only go up.
    await lock.acquire();
    expect(await lock.forceUnlock()).toBe(true);
    expect(await ctx.backend().command(['EXISTS', name], name)).toBe(0);
    expect(await lock.currentToken()).toBe(2n);
    expect((await lock.acquire()).token).toBe(3n);
  });

  it('a local hand-off draws the receiver a token of its own, as its acquisition would', async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('handoff'));
    const first = await lock.acquire();
    const waiting = lock.acquire({ waitTime: 10_000 });
    await waitersAsleep(client);
    await first.release();
    const second = await waiting;
    expect(second.token).toBe(first.token + 1n);
    expect(await lock.currentToken()).toBe(second.token);
    // Passed, not taken afresh: the first holder's release never freed the lock.
    expect(await ctx.backend().command(['HKEYS', lock.name], lock.name)).toEqual([`${client.id}:${second.owner}`]);
    await second.release();
    expect(await lock.isLocked()).toBe(false);
  });

  it('a fenced hand-off request that arrives twice passes once and draws one token', async () => {
    const client = await ctx.client({ commandTimeout: 500 });
    const lock = new FencedLock(client, ctx.uniqueName('handoff-twice'));
    const held = await lock.acquire();
    const [hold] = (await ctx.backend().command(['HKEYS', holdMarkersKey(lock.name)], lock.name)) as string[];
    const to = { field: `${client.id}:receiver`, hold: `${client.id}-test:1` };
    const request = call(fencedHandOff, {
      name: lock.name,
      from: { field: `${client.id}:${held.owner}`, hold: hold! },
      to,
      lease: 5_000,
    });
    const runtime = lockRuntime(client);
    const passed = { status: 'passed', grant: held.token + 1n };
    expect(await runtime.run(request)).toEqual(passed);
    // Re-sent while the record keeps the outcome: the first outcome, and no token drawn again.
    expect(await runtime.run(request)).toEqual(passed);
    expect(await lock.currentToken()).toBe(held.token + 1n);
    expect(await ctx.backend().command(['HGETALL', lock.name], lock.name)).toEqual([to.field, '1']);
    // Re-sent after the record expired: the releasing hold is gone, so nothing changes.
    await sleep(1_200);
    expect(await runtime.run(request)).toEqual({ status: 'notHeld' });
    expect(await lock.currentToken()).toBe(held.token + 1n);
    expect(await lock.forceUnlock()).toBe(true);
  });

  it('a copy of an acquisition draws no token: one that counted gets the counter as it stands, one given back takes nothing', async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('acquire-twice'));
    const runtime = lockRuntime(client);
    const field = `${client.id}:owner`;
    const attempt = (hold: string) => call(fencedAcquire, { name: lock.name, field, hold, lease: 5_000 });
    const taking = attempt(`${client.id}-test:1`);
    expect(await runtime.run(taking)).toEqual({ status: 'taken', grant: 1n });
    expect(await runtime.run(taking)).toEqual({ status: 'taken', grant: 1n });
    expect(await ctx.backend().command(['HGETALL', lock.name], lock.name)).toEqual([field, '1']);
    expect(await runtime.run(call(lockCommands.release, { name: lock.name, field, hold: `${client.id}-test:1` }))).toBe(
      'freed',
    );
    // After its release, and for an attempt given back before it arrived: nothing taken, no token.
    expect(await runtime.run(taking)).toEqual({ status: 'heldByOther', ttl: 0 });
    const givenBack = `${client.id}-test:2`;
    expect(await runtime.run(call(lockCommands.release, { name: lock.name, field, hold: givenBack }))).toBe('notHeld');
    expect(await runtime.run(attempt(givenBack))).toEqual({ status: 'heldByOther', ttl: 0 });
    // Past its deadline: refused.
    const late = attempt(`${client.id}-test:3`);
    await expect(runtime.run({ ...late, args: (context) => late.args({ ...context, deadline: 1 }) })).rejects.toThrow(
      RedisUnavailableError,
    );
    expect(await lock.isLocked()).toBe(false);
    expect(await lock.currentToken()).toBe(1n);
  });

  it('a counter that is not an integer fails a hand-off and leaves the lock with its holder', async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('handoff-corrupt'));
    const held = await lock.acquire();
    const [hold] = (await ctx.backend().command(['HKEYS', holdMarkersKey(lock.name)], lock.name)) as string[];
    await ctx.backend().command(['SET', lock.tokenKey, 'not a number'], lock.tokenKey);
    const request = call(fencedHandOff, {
      name: lock.name,
      from: { field: `${client.id}:${held.owner}`, hold: hold! },
      to: { field: `${client.id}:receiver`, hold: `${client.id}-test:2` },
      lease: 5_000,
    });
    await expect(lockRuntime(client).run(request)).rejects.toThrow(/not an integer/);
    expect(await lock.isHeldBy(held.owner)).toBe(true);
    await ctx.backend().command(['SET', lock.tokenKey, String(held.token)], lock.tokenKey);
    await held.release();
    expect(await lock.isLocked()).toBe(false);
  });

  it('tokens are exact beyond 2^53, as the 64-bit counter holds them', async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('big'));
    const start = 2n ** 62n + 1n;
    await ctx.backend().command(['SET', lock.tokenKey, String(start)], lock.tokenKey);
    const held = await lock.acquire();
    expect(held.token).toBe(start + 1n);
    expect(await lock.currentToken()).toBe(start + 1n);
    await held.release();
  });

  it('a counter that is not an integer fails the acquisition and leaves the lock untaken', async () => {
    const client = await ctx.client();
    const lock = new FencedLock(client, ctx.uniqueName('corrupt'));
    await ctx.backend().command(['SET', lock.tokenKey, 'not a number'], lock.tokenKey);
    await expect(lock.tryAcquire()).rejects.toThrow(/not an integer/);
    expect(await lock.isLocked()).toBe(false);
  });

  it('3 processes contending with re-entries see strictly increasing tokens in hold order, none skipped', async () => {
    const name = ctx.uniqueName('processes');
    const listKey = `${name}:tokens`;
    const iterations = 15;
    const children = Array.from({ length: 3 }, () =>
      ChildProcess.start('./tokenContender.ts', { spec: ctx.backend().spec, lockName: name, listKey, iterations }),
    );
    for (const child of children) expect(await child.line()).toBe('done');
    await Promise.all(children.map((child) => child.finish()));
    const tokens = ((await ctx.backend().command(['LRANGE', listKey, 0, -1], listKey)) as string[]).map(BigInt);
    const drawn = 3 * iterations * 2;
    expect(tokens).toEqual(Array.from({ length: drawn }, (_, i) => BigInt(i + 1)));
    expect(await new FencedLock(await ctx.client(), name).currentToken()).toBe(BigInt(drawn));
  }, 60_000);
});
