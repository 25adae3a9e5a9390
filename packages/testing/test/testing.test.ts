import { Cluster, Redis } from 'ioredis';
import { InvalidArgumentError, LockClient } from '@deadbolt/core';
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { isAlive } from '../src/servers.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockHolders, startTestRedis, useTestRedis, useTestRedisCluster, waitUntilReleased } from '../src/index.js';

describe('useTestRedis', () => {
  const redis = useTestRedis({ beforeAll, afterAll });
  let client: Redis;
  let locks: LockClient;
  beforeAll(() => {
    client = new Redis(redis().url);
    locks = new LockClient(ioredisExecutor(client));
  });
  afterAll(async () => {
    await locks.close();
    await client.quit();
  });

  it('gives a server of its own that answers', async () => {
    expect(redis().port).not.toBe(6379);
    expect(redis().url).toBe(`redis://${redis().host}:${redis().port}`);
    expect(await client.ping()).toBe('PONG');
  });

  it('lockHolders names each owner and its hold count, and nobody once released', async () => {
    const lock = locks.lock('testing:holders');
    const held = await lock.acquire();
    const again = await lock.acquire({ owner: held.owner });
    const named = await locks.lock('testing:holders:named').acquire({ owner: 'job-7' });
    expect(await lockHolders(locks, 'testing:holders')).toEqual([{ clientId: locks.id, owner: held.owner, holds: 2 }]);
    expect(await lockHolders(locks, 'testing:holders:named')).toEqual([
      { clientId: locks.id, owner: 'job-7', holds: 1 },
    ]);
    await again.release();
    await held.release();
    await named.release();
    expect(await lockHolders(locks, 'testing:holders')).toEqual([]);
  });

  it('lockHolders refuses an empty name before reaching Redis', async () => {
    await expect(lockHolders(locks, '')).rejects.toThrow(InvalidArgumentError);
  });

  it('waitUntilReleased resolves once a background hold ends, and fails when it does not', async () => {
    const lock = locks.lock('testing:background');
    const held = await lock.acquire();
    setTimeout(() => void held.release(), 100);
    await waitUntilReleased(lock);
    expect(await lock.isLocked()).toBe(false);

    const stuck = await lock.acquire();
    await expect(waitUntilReleased(lock, { timeout: 50 })).rejects.toThrow(
      'waiting until lock "testing:background" is released',
    );
    await stuck.release();
  });

  it('waitUntilReleased names a bad timeout', async () => {
    await expect(waitUntilReleased(locks.lock('testing:x'), { timeout: -1 })).rejects.toThrow(
      expect.objectContaining({ argument: 'options.timeout' }),
    );
  });
});

describe('startTestRedis', () => {
  it('stops the server it started by pid', async () => {
    const previous = process.env['REDIS_URL'];
    delete process.env['REDIS_URL'];
    try {
      const server = await startTestRedis();
      expect(server.pid).toBeTypeOf('number');
      await server.stop();
      expect(isAlive(server.pid ?? 0)).toBe(false);
    } finally {
      if (previous !== undefined) process.env['REDIS_URL'] = previous;
    }
  });

  it('uses REDIS_URL when it is set, and leaves that server running', async () => {
    const own = await startTestRedis();
    process.env['REDIS_URL'] = own.url;
    try {
      const given = await startTestRedis();
      expect(given).toMatchObject({ url: own.url, port: own.port, pid: undefined });
      await given.stop();
      expect(isAlive(own.pid ?? 0)).toBe(true);
    } finally {
      delete process.env['REDIS_URL'];
      await own.stop();
    }
  });
});

describe('useTestRedisCluster', () => {
  const cluster = useTestRedisCluster({ beforeAll, afterAll });

  it('gives a cluster that serves every slot', async () => {
    const client = new Cluster([...cluster().startupNodes]);
    try {
      const keys = ['{a}x', '{b}x', '{c}x'];
      for (const key of keys) await client.set(key, '1');
      expect(await Promise.all(keys.map((key) => client.get(key)))).toEqual(['1', '1', '1']);
    } finally {
      await client.quit();
    }
  });
});

it('useTestRedis outside its hooks says when the server is there', () => {
  const redis = useTestRedis({ beforeAll: () => undefined, afterAll: () => undefined });
  expect(() => redis()).toThrow('use it in a test or hook between them');
});
