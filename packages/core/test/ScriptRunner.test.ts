import { describe, expect, it } from 'vitest';
import type { Executor } from '../src/executor/Executor.js';
import { RedisUnavailableError } from '../src/errors/LockError.js';
import { defineScript } from '../src/scripts/Script.js';
import { ScriptRunner } from '../src/scripts/ScriptRunner.js';

// How calls reach the server: in full until the script is known loaded on that route, then by
// digest, so that calls made together arrive in the order they were made.

const script = defineScript('test/runner', 'return 1');

/** An executor that logs what it is sent and answers like a server whose script cache it models. */
function fakeServer(isCluster: boolean) {
  const sent: string[] = [];
  const cache = new Set<string>();
  const executor: Executor = {
    isCluster,
    evalsha: (sha: string, keys: readonly string[]) => {
      sent.push(`EVALSHA ${keys[0]}`);
      return cache.has(sha) ? Promise.resolve(1) : Promise.reject(new Error('NOSCRIPT No matching script.'));
    },
    eval: (_source: string, keys: readonly string[]) => {
      sent.push(`EVAL ${keys[0]}`);
      cache.add(script.sha);
      return Promise.resolve(1);
    },
    command: () => Promise.resolve(null),
    subscribe: () => Promise.resolve(),
    unsubscribe: () => Promise.resolve(),
    listen: () => undefined,
    close: () => Promise.resolve(),
  };
  return { executor, sent, flush: () => cache.clear() };
}

describe('ScriptRunner', () => {
  it('sends concurrent first calls in full, in order, and later calls by digest', async () => {
    const server = fakeServer(false);
    const runner = new ScriptRunner(server.executor, 1_000);
    await Promise.all(['a', 'b', 'c'].map((key) => runner.run(script, [key], [])));
    await runner.run(script, ['d'], []);
    expect(server.sent).toEqual(['EVAL a', 'EVAL b', 'EVAL c', 'EVALSHA d']);
  });

  it('falls back to the full script after NOSCRIPT and sends it in full until it is loaded again', async () => {
    const server = fakeServer(false);
    const runner = new ScriptRunner(server.executor, 1_000);
    await runner.run(script, ['a'], []);
    server.flush();
    expect(await runner.run(script, ['b'], [])).toBe(1);
    await runner.run(script, ['c'], []);
    expect(server.sent).toEqual(['EVAL a', 'EVALSHA b', 'EVAL b', 'EVALSHA c']);
  });

  it('in a cluster, knows a script as loaded per slot', async () => {
    const server = fakeServer(true);
    const runner = new ScriptRunner(server.executor, 1_000);
    await runner.run(script, ['{x}a'], []);
    await runner.run(script, ['{x}b'], []);
    await runner.run(script, ['{y}a'], []);
    expect(server.sent).toEqual(['EVAL {x}a', 'EVALSHA {x}b', 'EVAL {y}a']);
  });

  it('turns a refusal as late into RedisUnavailableError (outcome unknown) and says which key it was about', async () => {
    const refusing: Executor = {
      ...fakeServer(false).executor,
      eval: () =>
        Promise.reject(new Error('DEADBOLT_LATE 1700000000500 1700000000000 script: abc, on @user_script:9.')),
    };
    const late: string[] = [];
    const runner = new ScriptRunner(refusing, 1_000, (key) => late.push(key));
    const refused = runner.run(script, ['orders'], []);
    await expect(refused).rejects.toBeInstanceOf(RedisUnavailableError);
    await expect(refused).rejects.toThrow(/500 ms after its deadline.*outcome is unknown/);
    expect(late).toEqual(['orders']);
  });
});
