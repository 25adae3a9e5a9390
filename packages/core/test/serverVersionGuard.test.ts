import { describe, expect, it } from 'vitest';
import { LockClient } from '../src/client/LockClient.js';
import { MINIMUM_SERVER_VERSION } from '../src/client/ServerVersionGuard.js';
import { RedisUnavailableError } from '../src/errors/LockError.js';
import { UnsupportedServerError } from '../src/errors/UnsupportedServerError.js';
import type { Executor } from '../src/executor/Executor.js';
import { lockRuntime } from '../src/runtime/LockRuntime.js';
import { call, defineCommand } from '../src/scripts/Command.js';
import { coreScripts } from '../src/scripts/coreScripts.js';
import { defineScript } from '../src/scripts/Script.js';

// The server version check as a client makes it: once, on first use, before any lock script.

const probe = defineCommand<null, number>({
  script: defineScript('test/version-probe', 'return 1'),
  keys: () => ['{probe}k'],
  args: () => [],
  decode: Number,
});
const run = (client: LockClient) => lockRuntime(client).run(call(probe, null));

/** An executor whose server reports `version()`; it logs every other script it is sent. */
function serverOf(version: () => Promise<unknown>) {
  const sent: string[] = [];
  const versionScript = coreScripts.serverVersion;
  const answer = (script: string) => {
    if (script === versionScript.sha || script === versionScript.source) return version();
    sent.push('script');
    return Promise.resolve(1);
  };
  const executor: Executor = {
    isCluster: false,
    evalsha: answer,
    eval: answer,
    command: (_key, args) =>
      Promise.resolve(
        args[0] === 'TIME' ? [String(Math.floor(Date.now() / 1000)), '0'] : 'maxmemory_policy:noeviction',
      ),
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
  return { executor, sent };
}

describe('the server version check', () => {
  it('is Redis 7.0', () => {
    expect(MINIMUM_SERVER_VERSION).toBe('7.0.0');
  });

  it.each(['6.0.16', '6.2.14'])(
    'refuses Redis %s on first use, naming both versions, and sends no lock script',
    async (old) => {
      const { executor, sent } = serverOf(() => Promise.resolve(old));
      const client = new LockClient(executor);
      const refused = run(client);
      await expect(refused).rejects.toBeInstanceOf(UnsupportedServerError);
      await expect(refused).rejects.toMatchObject({
        serverVersion: old,
        minimumVersion: '7.0.0',
        message: `Redis ${old} is older than Deadbolt supports: it needs Redis 7.0.0 or later`,
      });
      await expect(run(client)).rejects.toBeInstanceOf(UnsupportedServerError);
      expect(sent).toEqual([]);
    },
  );

  it.each(['7.0.15', '7.2.4', '8.0.2'])('lets Redis %s through', async (version) => {
    const { executor, sent } = serverOf(() => Promise.resolve(version));
    expect(await run(new LockClient(executor))).toBe(1);
    expect(sent).toEqual(['script']);
  });

  it('asks again after a probe that could not reach Redis', async () => {
    let attempts = 0;
    const { executor } = serverOf(() =>
      ++attempts === 1 ? Promise.reject(new Error('connect ECONNREFUSED')) : Promise.resolve('7.0.15'),
    );
    const client = new LockClient(executor);
    await expect(run(client)).rejects.toBeInstanceOf(RedisUnavailableError);
    expect(await run(client)).toBe(1);
    expect(attempts).toBe(2);
  });
});
