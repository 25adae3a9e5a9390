// A held group's watching of its members, over held locks that need no Redis (the Redis suites
// lose real members): what it aborts on, and what it costs.
import { LockLostError } from '@deadbolt/core';
import { HeldLockGroup } from '@deadbolt/multilock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { heldMember } from './heldMember.js';

const lost = (name: string) => new LockLostError(`"${name}" was gone`, { lockName: name, reason: 'gone' });

describe('HeldLockGroup', () => {
  afterEach(() => vi.restoreAllMocks());

  it('watches its members, a late one too, without creating their signals or its own', async () => {
    // Node creates an AbortSignal only when asked for, and that costs microseconds per hold.
    const signals = vi.spyOn(AbortController.prototype, 'signal', 'get');
    const [a, b, c] = ['a', 'b', 'c'].map(heldMember);
    const group = new HeldLockGroup({
      owner: 'worker-1',
      members: [a!.held, b!.held],
      needed: 2,
      total: 3,
      pending: [Promise.resolve(c!.held)],
    });
    await vi.waitFor(() => expect(group.members).toHaveLength(3));
    await group.release();
    expect(signals).not.toHaveBeenCalled();
  });

  it('aborts once fewer members than it needs remain, with the last one lost', () => {
    const [a, b, c] = ['a', 'b', 'c'].map(heldMember);
    const group = new HeldLockGroup({ owner: 'worker-1', members: [a!.held, b!.held, c!.held], needed: 2, total: 3 });
    a!.lose(lost('a'));
    expect(group.signal.aborted).toBe(false);
    b!.lose(lost('b'));
    expect(group.signal.reason).toEqual(expect.any(LockLostError));
    expect((group.signal.reason as LockLostError).message).toContain('lost member "b"');
  });

  it('counts a member lost before the group was made at once', () => {
    const [a, b] = ['a', 'b'].map(heldMember);
    a!.lose(lost('a'));
    const group = new HeldLockGroup({ owner: 'worker-1', members: [a!.held, b!.held], needed: 2, total: 2 });
    expect(group.signal.aborted).toBe(true);
  });

  it('stops watching once released', async () => {
    const [a, b] = ['a', 'b'].map(heldMember);
    const group = new HeldLockGroup({ owner: 'worker-1', members: [a!.held, b!.held], needed: 2, total: 2 });
    await group.release();
    a!.lose(lost('a'));
    expect(group.signal.aborted).toBe(false);
  });
});
