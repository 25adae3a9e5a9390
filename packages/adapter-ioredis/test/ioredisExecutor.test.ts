// What only the ioredis adapter refuses, before anything connects. The executor contract itself
// is tested on real servers, on both ioredis majors, by packages/conformance.
import { InvalidArgumentError } from '@deadbolt/core';
import { Cluster, Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ioredisExecutor } from '../src/index.js';

/** The error `create` throws; fails the test when it throws none. */
function thrownBy(create: () => unknown): unknown {
  try {
    create();
  } catch (error) {
    return error;
  }
  throw new Error('nothing was thrown');
}

describe('ioredisExecutor', () => {
  it.each([
    { kind: 'a Redis', client: () => new Redis({ lazyConnect: true, keyPrefix: 'app:' }) },
    { kind: 'a Cluster', client: () => new Cluster([], { lazyConnect: true, keyPrefix: 'app:' }) },
    {
      kind: "a Cluster's redisOptions",
      client: () => new Cluster([], { lazyConnect: true, redisOptions: { keyPrefix: 'app:' } }),
    },
  ])('refuses $kind with a keyPrefix, naming `client`', ({ client }) => {
    // ioredis would prefix the lock keys and not the channels: waiters would never be woken.
    const error = thrownBy(() => ioredisExecutor(client()));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument: 'client', message: expect.stringContaining('app:') });
  });

  it('refuses an unknown option, naming it', () => {
    const error = thrownBy(() => ioredisExecutor(new Redis({ lazyConnect: true }), { subscriberNam: 'x' } as never));
    expect(error).toBeInstanceOf(InvalidArgumentError);
    expect(error).toMatchObject({ argument: 'options.subscriberNam' });
  });
});
