// The executor over both ioredis majors (5 and 6), standalone and cluster. The shared conformance
// suite covers the installed major in depth; this checks that the other one behaves the same.
import { createHash } from 'node:crypto';
import type { Executor } from '@deadbolt/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ioredisExecutor } from '../src/index.js';
import { connectClient, type Major } from './clients.js';
import { startTopology, type TestTopology } from './topologies.js';

let sequence = 0;
const unique = (label: string) => `adapter-test:{${label}-${++sequence}}`;
const waitUntil = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

function recorder(executor: Executor) {
  const heard = { messages: [] as string[], reconnects: 0 };
  executor.listen({
    onMessage: (channel, message) => heard.messages.push(`${channel}=${message}`),
    onSubscriberReconnect: () => heard.reconnects++,
  });
  return heard;
}

const topologies: Record<string, TestTopology> = {};
beforeAll(async () => {
  [topologies['standalone'], topologies['cluster']] = await Promise.all([startTopology('standalone'), startTopology('cluster')]);
});
afterAll(() => Promise.all(Object.values(topologies).map((topology) => topology.stop())));

describe.each([5, 6] as Major[])('ioredis %i', (major) => {
  describe.each(['standalone', 'cluster'])('%s', (name) => {
    const topology = () => topologies[name]!;
    const open = async (subscriberName = `adapter-test-${++sequence}`) => {
      const client = await connectClient(major, topology().target);
      const executor = ioredisExecutor(client, { subscriberName });
      const dispose = async () => {
        await executor.close();
        await client.quit();
      };
      return { client, executor, subscriberName, [Symbol.asyncDispose]: dispose };
    };

    it('runs scripts, rejecting EVALSHA with NOSCRIPT until EVAL loads it again', async () => {
      await using opened = await open();
      const { executor } = opened;
      expect(executor.isCluster).toBe(name === 'cluster');
      const key = unique('script');
      const source = "return {redis.call('incr', KEYS[1]), ARGV[1], tonumber(ARGV[2])}";
      const sha = createHash('sha1').update(source).digest('hex');
      expect(await executor.eval(source, [key], ['a', 7])).toEqual([1, 'a', 7]);
      await (await topology().ownerOf(key)).command('SCRIPT', 'FLUSH');
      await expect(executor.evalsha(sha, [key], ['a', 7])).rejects.toThrow(/^NOSCRIPT/);
      expect(await executor.eval(source, [key], ['b', 8])).toEqual([2, 'b', 8]);
      expect(await executor.evalsha(sha, [key], ['c', 9])).toEqual([3, 'c', 9]);
      expect(await executor.eval('return nil', [key], [])).toBeNull();
    });

    it('delivers classic and sharded messages on the owning nodes and unsubscribes cleanly', async () => {
      await using opened = await open();
      const { executor } = opened;
      const heard = recorder(executor);
      const channels = [unique('c1'), unique('c2'), unique('s1'), unique('s2')];
      const sharded = (channel: string) => channel.includes('{s');
      await Promise.all(channels.map((channel) => executor.subscribe(channel, sharded(channel))));
      expect(await topology().channels('adapter-test:*')).toEqual([...channels].sort());
      for (const channel of channels) {
        await (await topology().ownerOf(channel)).command(sharded(channel) ? 'SPUBLISH' : 'PUBLISH', channel, 'hello');
      }
      await waitUntil(() => expect(heard.messages.sort()).toEqual(channels.map((channel) => `${channel}=hello`).sort()));
      await Promise.all(channels.map((channel) => executor.unsubscribe(channel, sharded(channel))));
      expect(await topology().channels('adapter-test:*')).toEqual([]);
    });

    it('restores its subscriptions after its connections are killed and reports each recovery once', async () => {
      await using opened = await open();
      const { executor, subscriberName } = opened;
      const heard = recorder(executor);
      const classic = unique('killed-c');
      const sharded = unique('killed-s');
      await executor.subscribe(classic, false);
      await executor.subscribe(sharded, true);
      const killed = await topology().killClients(subscriberName);
      expect(killed).toBeGreaterThan(0);
      await waitUntil(() => expect(heard.reconnects).toBe(killed));
      await (await topology().ownerOf(classic)).command('PUBLISH', classic, 'back');
      await (await topology().ownerOf(sharded)).command('SPUBLISH', sharded, 'back');
      await waitUntil(() => expect(heard.messages.sort()).toEqual([`${classic}=back`, `${sharded}=back`].sort()));
      expect(heard.reconnects).toBe(killed);
      await executor.unsubscribe(classic, false);
      await executor.unsubscribe(sharded, true);
      expect(await topology().channels('adapter-test:*')).toEqual([]);
    });

    it.runIf(name === 'standalone')('survives a server restart, and forgets a channel unsubscribed while it is down', async () => {
      await using opened = await open();
      const { executor } = opened;
      const heard = recorder(executor);
      const [kept, dropped] = [unique('restart-kept'), unique('restart-dropped')];
      await executor.subscribe(kept, true);
      await executor.subscribe(dropped, false);
      const server = await topology().ownerOf(kept);
      await server.kill();
      try {
        // Offline, unsubscribing must not wait for the server to come back.
        await executor.unsubscribe(dropped, false);
      } finally {
        await server.restart();
      }
      await waitUntil(() => expect(heard.reconnects).toBe(1));
      expect(await topology().channels('adapter-test:*')).toEqual([kept]);
      await server.command('SPUBLISH', kept, 'back');
      await waitUntil(() => expect(heard.messages).toEqual([`${kept}=back`]));
      await executor.unsubscribe(kept, true);
    });

    it("closes only the connections it opened, and the user's client keeps working", async () => {
      const { client, executor, subscriberName } = await open();
      await executor.subscribe(unique('close'), true);
      expect(await topology().countClients(subscriberName)).toBe(1);
      await executor.close();
      await executor.close();
      await waitUntil(async () => expect(await topology().countClients(subscriberName)).toBe(0));
      expect(await client.ping()).toBe('PONG');
      await client.quit();
    });
  });
});
