// Bad input is refused with an InvalidArgumentError naming the argument, before anything is sent.
import { unreachableExecutor } from '@deadbolt/conformance';
import { InvalidArgumentError, LockClient, type HeldLock, type LockBase } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { MultiLock, type MemberLock } from '@deadbolt/multilock';
import { ReadWriteLock } from '@deadbolt/rwlock';
import { afterEach, describe, expect, expectTypeOf, it } from 'vitest';

describe('MultiLock input', () => {
  const executor = unreachableExecutor();
  const client = new LockClient(executor);
  const other = new LockClient(unreachableExecutor());
  const refused = (argument: string): unknown => expect.objectContaining({ name: InvalidArgumentError.name, argument });

  afterEach(() => expect(executor.attempted).toEqual([]));

  it.each([
    ['nothing', undefined, 'locks'],
    ['a lock instead of an array', client.lock('a'), 'locks'],
    ['an empty array', [], 'locks'],
    ['a name instead of a lock', [client.lock('a'), 'b'], 'locks[1]'],
    ['the same lock twice', [client.lock('a'), client.lock('b'), client.lock('a')], 'locks'],
    ['two kinds of lock on one name and client', [client.lock('a'), new FairLock(client, 'a')], 'locks'],
    [
      'both halves of one read-write lock',
      [new ReadWriteLock(client, 'rw').readLock(), new ReadWriteLock(client, 'rw').writeLock()],
      'locks',
    ],
  ])('refuses %s', (_, locks, argument) => {
    expect(() => new MultiLock(locks as never)).toThrow(refused(argument));
  });

  it("takes a kind whose attempts grant more than a plain lock (a fenced lock's token)", () => {
    expectTypeOf<LockBase<HeldLock & { readonly token: bigint }, { token: bigint }>>().toExtend<MemberLock>();
    expectTypeOf<string>().not.toExtend<MemberLock>();
  });

  it('takes the same name on different clients, and any order', () => {
    expect(new MultiLock([other.lock('a'), client.lock('b'), client.lock('a')]).locks).toHaveLength(3);
  });

  const multi = new MultiLock([
    client.lock('a'),
    new FairLock(client, 'b'),
    new ReadWriteLock(client, 'c').writeLock(),
  ]);

  it.each([
    [{ leaseTime: 0 }, 'options.leaseTime'],
    [{ leaseTime: 1.5 }, 'options.leaseTime'],
    [{ waitTime: -1 }, 'options.waitTime'],
    [{ waitTime: Number.NaN }, 'options.waitTime'],
    [{ signal: 'stop' }, 'options.signal'],
    [{ owner: '' }, 'options.owner'],
    [{ owner: 'two words' }, 'options.owner'],
    [{ leasetime: 1_000 }, 'options.leasetime'],
    ['fast', 'options'],
  ])('acquire, tryAcquire and withLock refuse %j naming %s', async (options, argument) => {
    await expect(multi.acquire(options as never)).rejects.toThrow(refused(argument));
    await expect(multi.tryAcquire(options as never)).rejects.toThrow(refused(argument));
    await expect(multi.withLock(() => 1, options as never)).rejects.toThrow(refused(argument));
  });

  it('withLock refuses a callback that is not a function', async () => {
    await expect(multi.withLock('run' as never)).rejects.toThrow(refused('fn'));
  });
});
