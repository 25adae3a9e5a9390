// Copies of the fair lock's requests (issue 30): an attempt counts once, a copy of one that queued
// or was given back takes nothing and leaves the queue as it is, a copy of a leave takes out no
// waiter queued again since, and nothing runs past its deadline. Each request is run twice by
// hand, as a driver that re-sends it would; the fault-proxy tests in the conformance package make
// real late copies.
import { BACKENDS, sleep, useSuiteContext } from '@deadbolt/conformance';
import { FAIR_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { RedisUnavailableError, type LockClient } from '@deadbolt/core';
import { call, lockRuntime, requestRecordKey, type Call } from '@deadbolt/core/kit';
import { fairLockKeys } from '@deadbolt/fair-lock';
import { afterEach, describe, expect, it } from 'vitest';
import { fairAcquire } from '../src/commands/fairAcquire.js';
import { fairLeave } from '../src/commands/fairLeave.js';
import { fairRelease } from '../src/commands/fairRelease.js';
import { queueState } from './queueState.js';

const WAITER_TIMEOUT = 60_000;
const LEASE = 30_000;
const ALLOWANCE = 10_000;

/** The same call with a deadline the server's clock has passed. */
function late<Reply>(request: Call<Reply>): Call<Reply> {
  return { ...request, args: (context) => request.args({ ...context, deadline: 1 }) };
}

describe.each(BACKENDS)('FairLock request copies on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(FAIR_LOCK), adapter, topology);
  const names: string[] = [];
  afterEach(async () => {
    for (const name of names.splice(0)) expect(await queueState(ctx, name).keysLeft(), name).toBe(0);
  });

  /** A fair lock's name, its queue, and its commands bound for `client`, with hold and request ids of the test's own. */
  function fairLock(client: LockClient, label: string) {
    const name = ctx.uniqueName(label);
    names.push(name);
    const lock = { keys: fairLockKeys(name), waiterTimeout: WAITER_TIMEOUT };
    let ids = 0;
    const runtime = lockRuntime(client);
    return {
      name,
      queue: queueState(ctx, name),
      newId: () => `${client.id}-test:${++ids}`,
      run: <Reply>(request: Call<Reply>) => runtime.run(request),
      acquire: (owner: string, hold: string, allowance = ALLOWANCE) =>
        call(fairAcquire, { ...lock, field: `${client.id}:${owner}`, hold, lease: LEASE, allowance }),
      release: (owner: string, hold: string) => call(fairRelease, { ...lock, field: `${client.id}:${owner}`, hold }),
      leave: (owner: string, request: string) =>
        call(fairLeave, { ...lock, field: `${client.id}:${owner}`, allowance: ALLOWANCE, request }),
    };
  }

  it('an attempt that took the lock counts once: its copy is taken again, with one hold', async () => {
    const client = await ctx.client();
    const lock = fairLock(client, 'taken-twice');
    const hold = lock.newId();
    const attempt = lock.acquire('a', hold);
    expect(await lock.run(attempt)).toEqual({ status: 'taken', grant: null });
    expect(await lock.run(attempt)).toEqual({ status: 'taken', grant: null });
    expect(await ctx.backend().command(['HGETALL', lock.name], lock.name)).toEqual([`${client.id}:a`, '1']);
    expect(await lock.run(lock.release('a', hold))).toBe('freed');
  });

  it('a copy of an attempt that queued takes nothing and moves no deadline', async () => {
    const client = await ctx.client();
    const lock = fairLock(client, 'queued-twice');
    const held = lock.newId();
    await lock.run(lock.acquire('holder', held));
    const attempt = lock.acquire('waiter', lock.newId());
    expect((await lock.run(attempt)).status).toBe('heldByOther');
    const field = `${client.id}:waiter`;
    const deadline = await lock.queue.deadline(field);
    // The copy is sent later, so a new attempt would have moved the deadline on by then.
    await sleep(20);
    expect((await lock.run(attempt)).status).toBe('heldByOther');
    expect([await lock.queue.waiters(), await lock.queue.deadline(field)]).toEqual([[field], deadline]);
    expect(await lock.run(lock.leave('waiter', lock.newId()))).toBe(true);
    await lock.run(lock.release('holder', held));
  });

  it('an attempt given back before it arrives takes nothing and does not queue', async () => {
    const client = await ctx.client();
    const lock = fairLock(client, 'given-back');
    const hold = lock.newId();
    expect(await lock.run(lock.release('a', hold))).toBe('notHeld');
    expect(await lock.run(lock.acquire('a', hold))).toEqual({ status: 'heldByOther', ttl: expect.any(Number) });
    expect(await ctx.backend().command(['EXISTS', lock.name], lock.name)).toBe(0);
    expect(await lock.queue.keysLeft()).toBe(0);
    // Its record lives on only for a while.
    expect(await ctx.backend().command(['PTTL', requestRecordKey(lock.name, hold)], lock.name)).toBeGreaterThan(0);
  });

  it('a copy of a leave answers the first outcome and leaves the owner queued again since in place', async () => {
    const client = await ctx.client();
    const lock = fairLock(client, 'leave-twice');
    const held = lock.newId();
    await lock.run(lock.acquire('holder', held));
    await lock.run(lock.acquire('waiter', lock.newId()));
    const leave = lock.leave('waiter', lock.newId());
    expect(await lock.run(leave)).toBe(true);
    expect(await lock.queue.keysLeft()).toBe(0);
    await lock.run(lock.acquire('waiter', lock.newId()));
    expect(await lock.run(leave)).toBe(true);
    expect(await lock.queue.waiters()).toEqual([`${client.id}:waiter`]);
    expect(await lock.run(lock.leave('waiter', lock.newId()))).toBe(true);
    await lock.run(lock.release('holder', held));
  });

  it('an attempt or a leave past its deadline is refused and changes nothing', async () => {
    const client = await ctx.client();
    const lock = fairLock(client, 'late');
    await expect(lock.run(late(lock.acquire('a', lock.newId())))).rejects.toThrow(RedisUnavailableError);
    expect(await ctx.backend().command(['EXISTS', lock.name], lock.name)).toBe(0);
    const held = lock.newId();
    await lock.run(lock.acquire('holder', held));
    await lock.run(lock.acquire('waiter', lock.newId()));
    await expect(lock.run(late(lock.leave('waiter', lock.newId())))).rejects.toThrow(RedisUnavailableError);
    expect(await lock.queue.waiters()).toEqual([`${client.id}:waiter`]);
    expect(await lock.run(lock.leave('waiter', lock.newId()))).toBe(true);
    await lock.run(lock.release('holder', held));
  });
});
