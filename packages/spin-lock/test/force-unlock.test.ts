// The spin lock's force-unlock (issue 30): it frees exactly the holds there were when asked. A
// copy of the request answers the first outcome and frees nothing taken since, a lock held
// otherwise than as read stays, and a request past its deadline is refused. The copies are sent
// by hand, as a driver that re-sends a request would; the fault-proxy tests in the conformance
// package make real late copies.
import { BACKENDS, useSuiteContext } from '@deadbolt/conformance';
import { SPIN_LOCK, subjectOf } from '@deadbolt/conformance/kinds';
import { RedisUnavailableError } from '@deadbolt/core';
import { call, decodeHash, lockRuntime } from '@deadbolt/core/kit';
import { SpinLock } from '@deadbolt/spin-lock';
import { describe, expect, it } from 'vitest';
import { spinForceRelease } from '../src/commands/spinForceRelease.js';

describe.each(BACKENDS)('SpinLock force-unlock on $adapter/$topology', ({ adapter, topology }) => {
  const ctx = useSuiteContext(subjectOf(SPIN_LOCK), adapter, topology);

  it('frees the holds it was shown once: a copy frees nothing taken since, nor a lock held otherwise', async () => {
    const [operator, holder] = [await ctx.client(), await ctx.client()];
    const name = ctx.uniqueName('force');
    const lock = new SpinLock(holder, name);
    const runtime = lockRuntime(operator);
    const hash = async () => decodeHash(await ctx.backend().command(['HGETALL', name], name));
    await lock.acquire({ owner: 'stuck' });
    const force = call(spinForceRelease, { name, request: `${operator.id}-test:1`, holders: await hash() });
    expect(await runtime.run(force)).toBe(true);
    const next = await lock.acquire({ owner: 'next' });
    expect(await runtime.run(force)).toBe(true);
    expect(await lock.isHeldBy('next')).toBe(true);
    // A new request with the hash as it was: the lock has changed since, so it stays.
    const stale = call(spinForceRelease, {
      name,
      request: `${operator.id}-test:2`,
      holders: { [`${holder.id}:stuck`]: '1' },
    });
    expect(await runtime.run(stale)).toBe(false);
    // Past its deadline: refused, and the lock stays.
    const late = call(spinForceRelease, { name, request: `${operator.id}-test:3`, holders: await hash() });
    await expect(runtime.run({ ...late, args: (context) => late.args({ ...context, deadline: 1 }) })).rejects.toThrow(
      RedisUnavailableError,
    );
    expect(await lock.isHeldBy('next')).toBe(true);
    await next.release();
    expect(await new SpinLock(operator, name).forceUnlock()).toBe(false);
  });
});
