// The bare attempt a RedLock's rounds are made of (core's kit `attemptAlone`), on both adapters:
// it takes the lock and nothing else until it is kept, gives it back cleanly, and refuses a lock
// held by someone else.
import { BACKENDS } from '@deadbolt/conformance';
import { attemptAlone } from '@deadbolt/core/kit';
import { describe, expect, it } from 'vitest';
import { useDeployments } from './deployments.js';

const ADAPTERS = [...new Set(BACKENDS.map(({ adapter }) => adapter))];

describe.each(ADAPTERS)('a bare attempt (attemptAlone) on %s', (adapter) => {
  const nodes = useDeployments(adapter, 1);

  it('takes the lock with nothing kept alive until kept; kept, it is an ordinary held lock', async () => {
    const [client] = await nodes.clients(1);
    const lock = client!.lock(nodes.uniqueName('kept'));
    const taken = await attemptAlone(lock, { owner: 'worker-1' });
    expect(taken).not.toBeNull();
    expect(await lock.holdCount('worker-1')).toBe(1);
    expect(client!.activity().renewing).toBe(0);
    const held = await taken!.keep();
    expect(held.owner).toBe('worker-1');
    expect(client!.activity().renewing).toBe(1);
    await held.release();
    expect(await lock.isLocked()).toBe(false);
    expect(client!.activity().renewing).toBe(0);
  });

  it('gives back an unkept hold, and only that hold of its owner', async () => {
    const [client] = await nodes.clients(1);
    const lock = client!.lock(nodes.uniqueName('given-back'));
    const first = await lock.acquire({ owner: 'worker-1' });
    const taken = await attemptAlone(lock, { owner: 'worker-1', leaseTime: 10_000 });
    expect(await lock.holdCount('worker-1')).toBe(2);
    await taken!.giveBack();
    expect(await lock.holdCount('worker-1')).toBe(1);
    await first.release();
    expect(await lock.isLocked()).toBe(false);
  });

  it('is refused a lock held by another owner, and takes nothing', async () => {
    const [client] = await nodes.clients(1);
    const lock = client!.lock(nodes.uniqueName('held-elsewhere'));
    const theirs = await lock.acquire({ owner: 'worker-1' });
    expect(await attemptAlone(lock, { owner: 'worker-2' })).toBeNull();
    expect(await lock.holdCount('worker-2')).toBe(0);
    await theirs.release();
  });

  it('checks its options before anything reaches Redis', async () => {
    const [client] = await nodes.clients(1);
    const lock = client!.lock(nodes.uniqueName('bad-options'));
    await expect(attemptAlone(lock, { leaseTime: -1 })).rejects.toMatchObject({
      name: 'InvalidArgumentError',
      argument: 'options.leaseTime',
    });
    expect(await lock.isLocked()).toBe(false);
  });
});
