import { afterEach, describe, expect, it, vi } from 'vitest';
import { LockClient } from '../src/client/LockClient.js';
import { mayEvictLocks } from '../src/client/EvictionGuard.js';
import { EvictionRiskError } from '../src/errors/EvictionRiskError.js';
import { InvalidArgumentError, RedisUnavailableError } from '../src/errors/LockError.js';
import { PermissionDeniedError } from '../src/errors/PermissionDeniedError.js';
import type { CommandArguments, Executor } from '../src/executor/Executor.js';
import { lockRuntime } from '../src/runtime/LockRuntime.js';
import { call, defineCommand } from '../src/scripts/Command.js';
import { defineScript } from '../src/scripts/Script.js';
import { coreScripts } from '../src/scripts/coreScripts.js';

// The eviction policy check as a client makes it: once, on first use, through the executor's
// `command`, before the first script runs.

const probe = defineCommand<null, number>({
  script: defineScript('test/eviction-probe', 'return 1'),
  keys: () => ['{probe}k'],
  args: () => [],
  decode: Number,
});

const infoMemory = (policy: string, maxmemory = 2_097_152) =>
  ['# Memory', `maxmemory:${maxmemory}`, `maxmemory_policy:${policy}`, ''].join('\r\n');

/**
 * An executor that answers every script with 1 and INFO with `info()`, logging what it is sent;
 * the server clock's TIME probe and the server version probe, which every first use also sends,
 * are answered and not logged.
 */
function fakeExecutor(info: () => Promise<unknown>) {
  const sent: string[] = [];
  const version = coreScripts.serverVersion;
  const executor: Executor = {
    isCluster: false,
    evalsha: (sha) => {
      if (sha === version.sha) return Promise.resolve('7.0.15');
      sent.push('EVALSHA');
      return Promise.resolve(1);
    },
    eval: (source) => {
      if (source === version.source) return Promise.resolve('7.0.15');
      sent.push('EVAL');
      return Promise.resolve(1);
    },
    command: (key: string, args: CommandArguments) => {
      if (args[0] === 'TIME') return Promise.resolve([String(Math.floor(Date.now() / 1000)), '0']);
      sent.push(`${args.join(' ')} @${key}`);
      return info();
    },
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
  return { executor, sent };
}

const run = (client: LockClient) => lockRuntime(client).run(call(probe, null));

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the eviction policy check', () => {
  it.each([
    ['allkeys-lru', true],
    ['allkeys-lfu', true],
    ['allkeys-random', true],
    ['volatile-lru', true],
    ['volatile-lfu', true],
    ['volatile-random', true],
    ['volatile-ttl', true],
    ['noeviction', false],
  ])('%s may evict lock keys: %s', (policy, risky) => {
    expect(mayEvictLocks(policy)).toBe(risky);
  });

  it('warn: asks INFO memory once, on first use, routed by the first key, and emits evictionRisk once', async () => {
    const { executor, sent } = fakeExecutor(() => Promise.resolve(infoMemory('allkeys-lru')));
    const client = new LockClient(executor);
    const events: unknown[] = [];
    client.on('evictionRisk', (event) => events.push(event));
    expect(sent).toEqual([]);
    await Promise.all([run(client), run(client)]);
    await run(client);
    expect(sent).toEqual(['INFO memory @{probe}k', 'EVAL', 'EVAL', 'EVALSHA']);
    expect(events).toEqual([{ policy: 'allkeys-lru', maxmemory: 2_097_152 }]);
  });

  it('warn without a listener: one process warning instead', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const client = new LockClient(fakeExecutor(() => Promise.resolve(infoMemory('volatile-ttl'))).executor);
    await run(client);
    await run(client);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]?.[0])).toContain('volatile-ttl');
    expect(warn.mock.calls[0]?.[1]).toMatchObject({ type: 'DeadboltEvictionRisk', code: 'DEADBOLT_EVICTION_RISK' });
  });

  it('noeviction: no event, no warning', async () => {
    const warn = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    const client = new LockClient(fakeExecutor(() => Promise.resolve(infoMemory('noeviction'))).executor);
    const events: unknown[] = [];
    client.on('evictionRisk', (event) => events.push(event));
    expect(await run(client)).toBe(1);
    expect(events).toEqual([]);
    expect(warn).not.toHaveBeenCalled();
  });

  it('throw: every operation rejects with EvictionRiskError and no script is sent', async () => {
    const { executor, sent } = fakeExecutor(() => Promise.resolve(infoMemory('allkeys-lfu')));
    const client = new LockClient(executor, { evictionPolicy: 'throw' });
    const first = run(client);
    await expect(first).rejects.toBeInstanceOf(EvictionRiskError);
    await expect(first).rejects.toMatchObject({ policy: 'allkeys-lfu' });
    await expect(client.lock('orders').acquire()).rejects.toBeInstanceOf(EvictionRiskError);
    expect(sent).toEqual(['INFO memory @{probe}k']);
  });

  it('ignore: no INFO is sent', async () => {
    const { executor, sent } = fakeExecutor(() => Promise.resolve(infoMemory('allkeys-lru')));
    const client = new LockClient(executor, { evictionPolicy: 'ignore' });
    await run(client);
    expect(sent).toEqual(['EVAL']);
  });

  it('an INFO that fails for want of Redis is asked again on the next call', async () => {
    let attempts = 0;
    const { executor, sent } = fakeExecutor(() =>
      ++attempts === 1 ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve(infoMemory('noeviction')),
    );
    const client = new LockClient(executor);
    await expect(run(client)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(await run(client)).toBe(1);
    expect(sent).toEqual(['INFO memory @{probe}k', 'INFO memory @{probe}k', 'EVAL']);
  });

  it('an INFO the ACL user may not send rejects with PermissionDeniedError naming info', async () => {
    const refused = new Error("NOPERM this user has no permissions to run the 'info' command");
    const client = new LockClient(fakeExecutor(() => Promise.reject(refused)).executor);
    const failed = run(client);
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({ missing: 'command', message: expect.stringContaining("'info'") });
  });

  it('rejects an unknown mode before anything is sent', () => {
    expect(
      () => new LockClient(fakeExecutor(() => Promise.resolve('')).executor, { evictionPolicy: 'loud' as 'warn' }),
    ).toThrow(InvalidArgumentError);
  });
});
