// The operation a group runs on every member at once (release, extend), on fake timers over held
// locks that need no Redis.
import { LockError, RedisUnavailableError } from '@deadbolt/core';
import { settleMembers } from '@deadbolt/multilock';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldMember } from './heldMember.js';

describe('settleMembers', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('bounds every member with one timer, and names the failed and the unanswered in member order', async () => {
    const [a, b, c, d] = ['a', 'b', 'c', 'd'].map((name) => heldMember(name).held);
    const operations = new Map([
      [a, () => Promise.resolve()],
      [b, () => new Promise<void>(() => undefined)],
      [c, () => Promise.reject(new Error('refused'))],
      [d, () => Promise.resolve()],
    ]);
    let settled = false;
    const settling = settleMembers([a!, b!, c!, d!], (member) => operations.get(member)!(), 500).then((failures) => {
      settled = true;
      return failures;
    });
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(499);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await settling).toEqual([
      { member: b, error: expect.any(RedisUnavailableError) },
      { member: c, error: expect.objectContaining({ name: LockError.name, message: 'refused' }) },
    ]);
  });

  it('resolves as soon as every member answered, leaving no timer behind', async () => {
    const members = ['a', 'b'].map((name) => heldMember(name).held);
    expect(await settleMembers(members, () => Promise.resolve(), 500)).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('without a timeout waits for every member, with no timer', async () => {
    const [a] = ['a'].map((name) => heldMember(name).held);
    let answer: () => void = () => undefined;
    const settling = settleMembers([a!], () => new Promise<void>((resolve) => (answer = resolve)));
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(60_000);
    answer();
    expect(await settling).toEqual([]);
  });

  it('takes an operation that throws at once as that member failing', async () => {
    const [a] = ['a'].map((name) => heldMember(name).held);
    const failures = await settleMembers([a!], () => {
      throw new RedisUnavailableError('no client');
    });
    expect(failures).toEqual([{ member: a, error: expect.any(RedisUnavailableError) }]);
  });
});
