// Bad input is refused with an InvalidArgumentError naming the argument, before anything is sent.
import { unreachableExecutor } from '@deadbolt/conformance';
import { InvalidArgumentError, LockClient } from '@deadbolt/core';
import { RedLock } from '@deadbolt/redlock';
import { afterEach, describe, expect, it } from 'vitest';

describe('RedLock input', () => {
  const executors = [unreachableExecutor(), unreachableExecutor(), unreachableExecutor()];
  const clients = executors.map((executor) => new LockClient(executor));
  const [a, b, c] = clients as [LockClient, LockClient, LockClient];
  const refused = (argument: string): unknown => expect.objectContaining({ name: InvalidArgumentError.name, argument });

  afterEach(() => expect(executors.flatMap((executor) => executor.attempted)).toEqual([]));

  it.each([
    ['nothing', undefined, 'locks'],
    ['an empty array', [], 'locks'],
    ['a name instead of a lock', [a.lock('job'), 'job'], 'locks[1]'],
    ['two locks of one client', [a.lock('job'), b.lock('job'), a.lock('other')], 'locks'],
  ])('refuses %s', (_, locks, argument) => {
    expect(() => new RedLock(locks as never)).toThrow(refused(argument));
  });

  it.each([
    [{ nodeTimeout: 0 }, 'options.nodeTimeout'],
    [{ nodeTimeout: Infinity }, 'options.nodeTimeout'],
    [{ nodeTimeout: '50' }, 'options.nodeTimeout'],
    [{ retryDelay: -1 }, 'options.retryDelay'],
    [{ retryDelay: Number.NaN }, 'options.retryDelay'],
    [{ retryJitter: 2.5 }, 'options.retryJitter'],
    [{ retries: 3 }, 'options.retries'],
    [[], 'options'],
  ])('refuses the option %j naming %s', (options, argument) => {
    expect(() => new RedLock([a.lock('job'), b.lock('job')], options as never)).toThrow(refused(argument));
  });

  it('applies defaults and counts a majority', () => {
    const three = new RedLock([a.lock('job'), b.lock('job'), c.lock('job')]);
    expect(three.options).toEqual({ nodeTimeout: 500, retryDelay: 200, retryJitter: 100 });
    expect(three.quorum).toBe(2);
    expect(new RedLock([a.lock('job')], { nodeTimeout: 50 }).quorum).toBe(1);
  });

  const redlock = new RedLock([a.lock('job'), b.lock('job'), c.lock('job')]);

  it.each([
    [{ leaseTime: 2 }, 'options.leaseTime'],
    [{ leaseTime: -5 }, 'options.leaseTime'],
    [{ waitTime: -1 }, 'options.waitTime'],
    [{ signal: {} }, 'options.signal'],
    [{ owner: 'a b' }, 'options.owner'],
    [{ lease: 1_000 }, 'options.lease'],
  ])('acquire, tryAcquire and withLock refuse %j naming %s', async (options, argument) => {
    await expect(redlock.acquire(options as never)).rejects.toThrow(refused(argument));
    await expect(redlock.tryAcquire(options as never)).rejects.toThrow(refused(argument));
    await expect(redlock.withLock(() => 1, options as never)).rejects.toThrow(refused(argument));
  });

  it('withLock refuses a callback that is not a function', async () => {
    await expect(redlock.withLock(undefined as never)).rejects.toThrow(refused('fn'));
  });
});
