// What only the node-redis adapter decides, before anything connects: a client's kind from its
// shape, for both node-redis majors, and its options. The executor contract itself is tested on
// real servers, on both majors, by packages/conformance.
import { InvalidArgumentError } from '@deadbolt/core';
import { createClient, createCluster } from 'redis';
import { createClient as createClient5, createCluster as createCluster5 } from 'redis5';
import { describe, expect, it } from 'vitest';
import { nodeRedisExecutor } from '../src/index.js';

describe('nodeRedisExecutor', () => {
  it.each([
    { kind: 'createClient() of redis 6', client: () => createClient(), isCluster: false },
    { kind: 'createCluster() of redis 6', client: () => createCluster({ rootNodes: [] }), isCluster: true },
    { kind: 'createClient() of redis 5', client: () => createClient5(), isCluster: false },
    { kind: 'createCluster() of redis 5', client: () => createCluster5({ rootNodes: [] }), isCluster: true },
  ])('tells what $kind is without connecting it', async ({ client, isCluster }) => {
    const executor = nodeRedisExecutor(client());
    expect(executor.isCluster).toBe(isCluster);
    await executor.close();
  });

  it.each([
    { options: { subscriberNam: 'x' }, argument: 'options.subscriberNam' },
    { options: { subscriberName: 'has space' }, argument: 'options.subscriberName' },
  ])('refuses $argument, naming it', ({ options, argument }) => {
    expect(() => nodeRedisExecutor(createClient(), options as never)).toThrow(InvalidArgumentError);
    expect(() => nodeRedisExecutor(createClient(), options as never)).toThrow(expect.objectContaining({ argument }));
  });
});
