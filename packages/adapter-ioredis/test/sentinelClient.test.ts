// An ioredis client made with `sentinels` and `name` is a plain Redis client to the adapter, before
// anything connects. The executor on a running Sentinel deployment (failovers included) is tested
// by packages/conformance/test/sentinel.test.ts.
import { InvalidArgumentError } from '@deadbolt/core';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { ioredisExecutor } from '../src/index.js';

// Nothing listens there: the clients below are never connected.
const sentinels = [{ host: '127.0.0.1', port: 1 }];

describe('ioredisExecutor over a Sentinel-managed client', () => {
  it('takes it as a single master, and closes nothing of it', async () => {
    const redis = new Redis({ sentinels, name: 'deadbolt', lazyConnect: true });
    const executor = ioredisExecutor(redis);
    expect(executor.isCluster).toBe(false);
    await executor.close();
    expect(redis.status).toBe('wait');
  });

  it('refuses one with a keyPrefix, naming `client`', () => {
    const redis = new Redis({ sentinels, name: 'deadbolt', lazyConnect: true, keyPrefix: 'app:' });
    expect(() => ioredisExecutor(redis)).toThrow(InvalidArgumentError);
    expect(() => ioredisExecutor(redis)).toThrow(expect.objectContaining({ argument: 'client' }));
  });
});
