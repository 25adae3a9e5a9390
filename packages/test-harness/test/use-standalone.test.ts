import { afterEach, describe, expect, it } from 'vitest';
import {
  BIN_DIR_ENV,
  RedisUnavailableError,
  startCluster,
  startServers,
  startStandalone,
  useStandalone,
} from '../src/index.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const saved = { REDIS_URL: process.env['REDIS_URL'], [BIN_DIR_ENV]: process.env[BIN_DIR_ENV] };

afterEach(() => {
  for (const [name, value] of Object.entries(saved)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

describe('useStandalone', () => {
  it('uses the server REDIS_URL names and starts none', async () => {
    const external = await startStandalone();
    try {
      process.env['REDIS_URL'] = external.url;
      const target = await useStandalone();
      expect(target.url).toBe(external.url);
      expect(target.port).toBe(external.port);
      expect(target.node).toBeUndefined();
      await target.stop(); // must leave the given server alone
      expect(await external.command('PING')).toBe('PONG');
    } finally {
      await external.stop();
    }
  });

  it('starts a server of its own without REDIS_URL', async () => {
    delete process.env['REDIS_URL'];
    const target = await useStandalone();
    try {
      expect(target.node).toBeDefined();
      expect(target.url).toBe(target.node?.url);
      expect(await target.node?.command('PING')).toBe('PONG');
    } finally {
      await target.stop();
    }
    expect(target.node?.running).toBe(false);
  });
});

describe('without a redis-server binary', () => {
  const emptyDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'deadbolt-no-redis-'));

  it('topologies beyond standalone fail with the one clear message', async () => {
    process.env[BIN_DIR_ENV] = emptyDir();
    for (const start of [() => startCluster(), () => startServers(3)]) {
      const error: unknown = await start().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RedisUnavailableError);
      const message = (error as Error).message;
      expect(message).toContain('apt-get install redis-server');
      expect(message).toContain('REDIS_URL');
      expect(message).toContain('Docker');
    }
  });

  it('standalone falls back to a container, or fails with the same message when no runtime answers', async () => {
    delete process.env['REDIS_URL'];
    process.env[BIN_DIR_ENV] = emptyDir();
    const { getContainerRuntimeClient } = await import('testcontainers');
    const runtime = await getContainerRuntimeClient().then(
      () => true,
      () => false,
    );
    if (runtime) {
      const target = await useStandalone();
      try {
        expect(await target.node?.command('PING')).toBe('PONG');
      } finally {
        await target.stop();
      }
    } else {
      await expect(useStandalone()).rejects.toThrow(/apt-get install redis-server[\s\S]*REDIS_URL[\s\S]*Docker/);
    }
  });
});
