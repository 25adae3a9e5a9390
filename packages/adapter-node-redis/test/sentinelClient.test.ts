// What the node-redis adapter decides about a Sentinel client (`createSentinel()`) before anything
// connects, for both node-redis majors. The executor on a running Sentinel deployment (failovers
// included) is tested by packages/conformance/test/sentinel.test.ts.
import { InvalidArgumentError } from '@deadbolt/core';
import { createSentinel } from 'redis';
import { createSentinel as createSentinel5 } from 'redis5';
import { describe, expect, it } from 'vitest';
import { nodeRedisExecutor } from '../src/index.js';

// Nothing listens there: the clients below are never connected.
const options = { name: 'deadbolt', sentinelRootNodes: [{ host: '127.0.0.1', port: 1 }] };
const noop = (): undefined => undefined;

describe('nodeRedisExecutor over a Sentinel client', () => {
  it.each([
    { major: 6, client: () => createSentinel(options) },
    { major: 5, client: () => createSentinel5(options) },
  ])(
    'takes a createSentinel() client of redis $major as a single master, and closes nothing of it',
    async ({ client }) => {
      const sentinel = client();
      const executor = nodeRedisExecutor(sentinel);
      expect(executor.isCluster).toBe(false);
      // Before it connected the client knows no master: a subscription says so instead of waiting.
      await expect(executor.subscribe('channel', false)).rejects.toThrow(/knows no master yet/);
      await executor.close();
      expect(sentinel.isOpen).toBe(false);
    },
  );

  it.each([
    { what: 'an object with scripts only', client: { evalSha: noop, eval: noop } },
    { what: 'a Sentinel-like object without _execute', client: { evalSha: noop, eval: noop, getMasterNode: noop } },
    { what: 'null', client: null },
  ])('refuses $what, naming the client argument', ({ client }) => {
    expect(() => nodeRedisExecutor(client as never)).toThrow(InvalidArgumentError);
    expect(() => nodeRedisExecutor(client as never)).toThrow(expect.objectContaining({ argument: 'client' }));
  });
});
