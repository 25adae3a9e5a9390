import { unreachableExecutor } from '@deadbolt/conformance';
import { InvalidArgumentError, LockClient } from '@deadbolt/core';
import { SpinLock } from '@deadbolt/spin-lock';
import { describe, expect, it } from 'vitest';

// Bad options are refused before anything reaches Redis: this executor fails every call.
const unreachable = unreachableExecutor();

describe('SpinLock options', () => {
  const client = new LockClient(unreachable);

  it('takes no options, an empty backoff, or any valid part of one', () => {
    expect(new SpinLock(client, 'reports').name).toBe('reports');
    expect(new SpinLock(client, 'reports', {}).name).toBe('reports');
    expect(new SpinLock(client, 'reports', { backoff: { initialDelay: 5, maxDelay: 500, multiplier: 1.5 } }).name).toBe(
      'reports',
    );
    expect(new SpinLock(client, 'reports', { backoff: { multiplier: 1 } }).name).toBe('reports');
  });

  it.each([
    [{ backoff: { initialDelay: 0 } }, 'options.backoff.initialDelay'],
    [{ backoff: { initialDelay: -5 } }, 'options.backoff.initialDelay'],
    [{ backoff: { initialDelay: Number.NaN } }, 'options.backoff.initialDelay'],
    [{ backoff: { maxDelay: 2.5 } }, 'options.backoff.maxDelay'],
    [{ backoff: { initialDelay: 100, maxDelay: 50 } }, 'options.backoff.maxDelay'],
    [{ backoff: { maxDelay: Infinity } }, 'options.backoff.maxDelay'],
    [{ backoff: { multiplier: 0 } }, 'options.backoff.multiplier'],
    [{ backoff: { multiplier: Number.NaN } }, 'options.backoff.multiplier'],
    [{ backoff: { jitter: 0.5 } }, 'options.backoff.jitter'],
    [{ backoff: 'fast' }, 'options.backoff'],
    [{ backof: {} }, 'options.backof'],
    ['fast', 'options'],
  ])('refuses %j naming %s', (options, argument) => {
    const create = () => new SpinLock(client, 'reports', options as never);
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(expect.objectContaining({ argument }));
  });

  it('refuses an empty name', () => {
    expect(() => new SpinLock(client, '')).toThrow(expect.objectContaining({ argument: 'name' }));
  });

  it('sent nothing to Redis for any of the above', () => {
    expect(unreachable.attempted).toEqual([]);
  });
});
