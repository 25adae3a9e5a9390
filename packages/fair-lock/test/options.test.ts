import { unreachableExecutor } from '@deadbolt/conformance';
import { InvalidArgumentError, LockClient } from '@deadbolt/core';
import { FairLock } from '@deadbolt/fair-lock';
import { describe, expect, it } from 'vitest';

// Bad options are rejected before anything reaches Redis: this executor fails every call.
const unreachable = unreachableExecutor();

describe('FairLock options', () => {
  const client = new LockClient(unreachable);

  it('defaults waiterTimeout to 5 minutes, as Redisson does', () => {
    expect(new FairLock(client, 'orders').waiterTimeout).toBe(300_000);
    expect(new FairLock(client, 'orders', { waiterTimeout: 1_500 }).waiterTimeout).toBe(1_500);
  });

  it.each([
    [{ waiterTimeout: -1 }, 'options.waiterTimeout'],
    [{ waiterTimeout: 0 }, 'options.waiterTimeout'],
    [{ waiterTimeout: Number.NaN }, 'options.waiterTimeout'],
    [{ waiterTimeout: 2.5 }, 'options.waiterTimeout'],
    [{ waiterTimeout: Infinity }, 'options.waiterTimeout'],
    [{ waiterTimeout: '5000' }, 'options.waiterTimeout'],
    [{ waitertimeout: 5_000 }, 'options.waitertimeout'],
    ['fast', 'options'],
  ])('rejects %j naming %s', (options, argument) => {
    const create = () => new FairLock(client, 'orders', options as never);
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(expect.objectContaining({ argument }));
  });

  it('rejects an empty name', () => {
    expect(() => new FairLock(client, '')).toThrow(expect.objectContaining({ argument: 'name' }));
  });

  it('sent nothing to Redis for any of the above', () => {
    expect(unreachable.attempted).toEqual([]);
  });
});
