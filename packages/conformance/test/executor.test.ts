// The executor contract (packages/core/src/executor/Executor.ts), on every adapter × topology,
// with both majors of each driver: the executor is where a driver's version shows.
import { createHash } from 'node:crypto';
import { InvalidArgumentError, type Executor } from '@deadbolt/core';
import { type ExecutorListener } from '@deadbolt/core/adapter';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BACKENDS,
  majorsOf,
  respVersions,
  shardedOnStandalone,
  startBackend,
  type Backend,
  type ConnectedExecutor,
  type ConnectOptions,
} from '../src/backends/index.js';

let sequence = 0;
/** A name unique to this run, with a hash tag of its own so that names spread over the slots. */
const unique = (label: string) => `executor-test:{${label}-${process.pid}-${++sequence}}`;

/** Records what an executor reports. */
function recorder(executor: Executor) {
  const heard = { messages: [] as [string, string][], reconnects: 0 };
  const listener: ExecutorListener = {
    onMessage: (channel, message) => heard.messages.push([channel, message]),
    onSubscriberReconnect: () => heard.reconnects++,
  };
  executor.listen(listener);
  return heard;
}

const waitUntil = (check: () => Promise<void> | void, timeout = 10_000) => vi.waitFor(check, { timeout, interval: 25 });

describe.each(BACKENDS)('executor on $adapter/$topology', ({ adapter, topology }) => {
  let backend: Backend;
  beforeAll(async () => {
    backend = await startBackend(adapter, topology);
  });
  afterAll(() => backend?.close());

  // GLIDE's standalone client has no sharded pub/sub: there, the "sharded" channels below are classic.
  const canShard = topology === 'cluster' || shardedOnStandalone(adapter);
  const spublish = canShard ? 'SPUBLISH' : 'PUBLISH';
  /** Which of `channels` some server has subscribed, sorted; another test's leftovers are its own failure. */
  const subscribedAmong = async (channels: readonly string[]) =>
    (await backend.pubsubChannels('executor-test:*')).filter((channel) => channels.includes(channel));

  describe.each(majorsOf(adapter))(`${adapter} %i`, (major) => {
    const connect = (options: ConnectOptions = {}): Promise<ConnectedExecutor> =>
      backend.connect({ subscriberName: `deadbolt-test-${++sequence}`, major, ...options });

    it('reports whether the client is a cluster client', async () => {
      const { executor } = await connect();
      expect(executor.isCluster).toBe(topology === 'cluster');
    });

    it('serves one listener: a second lock client on the same executor is refused', async () => {
      const { executor } = await connect();
      recorder(executor);
      expect(() => recorder(executor)).toThrow(InvalidArgumentError);
    });

    it('rejects EVALSHA with NOSCRIPT after SCRIPT FLUSH, and EVAL runs the script', async () => {
      const { executor } = await connect();
      const key = unique('script');
      const source = "return redis.call('incr', KEYS[1])";
      const sha = createHash('sha1').update(source).digest('hex');
      expect(await executor.eval(source, [key], [])).toBe(1);
      expect(await executor.evalsha(sha, [key], [])).toBe(2);
      await backend.command(['SCRIPT', 'FLUSH'], key);
      const error: unknown = await executor.evalsha(sha, [key], []).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      expect((error as Error).message).toMatch(/^NOSCRIPT/);
      expect(await executor.eval(source, [key], [])).toBe(3);
      expect(await executor.evalsha(sha, [key], [])).toBe(4);
    });

    it('runs a script on the node owning its first key, with every argument passed as given', async () => {
      const { executor } = await connect();
      // Tags a, b and c hash to slots 15495, 3300 and 7365: one on each master of a 3-master cluster.
      const keys = Array.from({ length: 6 }, (_, i) => `{${'abc'[i % 3]}}:${unique(`route-${i}`)}`);
      for (const key of keys) {
        // The second key shares the first one's hash tag: a cluster node refuses non-local keys.
        const reply = await executor.eval(
          "redis.call('set', KEYS[1], ARGV[1]); redis.call('set', KEYS[2], ARGV[2]); return {ARGV[1], tonumber(ARGV[2])}",
          [key, `${key}:second`],
          ['value', 42],
        );
        expect(reply).toEqual(['value', 42]);
        expect(await backend.command(['GET', key], key)).toBe('value');
        expect(await backend.command(['GET', `${key}:second`], key)).toBe('42');
      }
      if (backend.cluster) {
        const owners = await Promise.all(keys.map((key) => backend.cluster!.masterForKey(key)));
        expect(new Set(owners.map((node) => node.port)).size).toBeGreaterThan(1);
      }
    });

    it("sends a plain command alone, on the very connection that runs its key's scripts", async () => {
      const { executor } = await connect();
      // Every server's WAIT count, and the last command of one connection, as the servers see them.
      const servers = (key: string) =>
        backend.cluster
          ? backend.cluster.masters.map((node) => node.command('INFO', 'commandstats'))
          : [backend.command(['INFO', 'commandstats'], key)];
      const waitCalls = async (key: string) => {
        const stats = (await Promise.all(servers(key))).join('\n');
        return [...stats.matchAll(/cmdstat_wait:calls=(\d+)/g)].reduce((sum, [, calls]) => sum + Number(calls), 0);
      };
      const lastCommand = async (key: string, id: unknown) =>
        /\bcmd=(\S+)/.exec(String(await backend.command(['CLIENT', 'LIST', 'ID', String(id)], key)))?.[1];
      for (const key of Array.from({ length: 6 }, (_, i) => unique(`command-${i}`))) {
        const id = await executor.command(key, ['CLIENT', 'ID']);
        expect(typeof id).toBe('number');
        await executor.eval("return redis.call('set', KEYS[1], ARGV[1])", [key], ['value']);
        expect(await lastCommand(key, id)).toBe('eval');
        // A keyless command goes to that connection only (node-redis would send WAIT to every shard).
        const waitsBefore = await waitCalls(key);
        expect(await executor.command(key, ['WAIT', 0, 0])).toBe(0);
        expect(await lastCommand(key, id)).toBe('wait');
        expect(await waitCalls(key)).toBe(waitsBefore + 1);
        expect(await executor.command(key, ['GET', key])).toBe('value');
      }
    });

    it.each([
      { kind: 'classic', sharded: false },
      { kind: 'sharded', sharded: true },
    ])('delivers $kind messages as strings and leaves no channel behind', async ({ kind, sharded }) => {
      const { executor } = await connect();
      const heard = recorder(executor);
      if (sharded && !canShard) {
        // Refused with a message that says why, and nothing subscribed.
        const refused = unique(kind);
        await expect(executor.subscribe(refused, true)).rejects.toThrow(/no sharded pub\/sub/);
        expect(await subscribedAmong([refused])).toEqual([]);
        return;
      }
      const channels = Array.from({ length: 4 }, (_, i) => unique(`${kind}-${i}`));
      const publish = sharded ? 'SPUBLISH' : 'PUBLISH';
      await Promise.all(channels.map((channel) => executor.subscribe(channel, sharded)));
      expect(await subscribedAmong(channels)).toEqual([...channels].sort());
      if (backend.cluster && sharded) {
        // Sharded subscriptions must live on the master that owns the channel's slot.
        for (const channel of channels) {
          const owner = await backend.cluster.masterForKey(channel);
          expect(await owner.command('PUBSUB', 'SHARDCHANNELS', channel)).toEqual([channel]);
        }
      }
      for (const channel of channels) {
        expect(await backend.command([publish, channel, 1], channel)).toBe(1);
        expect(await backend.command([publish, channel, 'two'], channel)).toBe(1);
      }
      await waitUntil(() => expect(heard.messages).toHaveLength(channels.length * 2));
      // In order per channel. Across channels on different nodes' connections there is no order: a
      // loaded server may send its PUBLISH reply and be descheduled before it writes the message.
      const byChannel = [...heard.messages].sort(([a], [b]) => channels.indexOf(a) - channels.indexOf(b));
      expect(byChannel).toEqual(
        channels.flatMap((channel) => [
          [channel, '1'],
          [channel, 'two'],
        ]),
      );
      await Promise.all(channels.map((channel) => executor.unsubscribe(channel, sharded)));
      expect(await subscribedAmong(channels)).toEqual([]);
      // Unsubscribing what is not subscribed is harmless.
      await executor.unsubscribe(channels[0]!, sharded);
    });

    it('restores subscriptions after its connections are killed, reporting each recovery once', async () => {
      const subscriberName = `deadbolt-killed-${++sequence}`;
      const { executor } = await connect({ subscriberName });
      const heard = recorder(executor);
      const classic = [unique('killed-classic-a'), unique('killed-classic-b')];
      const sharded = [unique('killed-sharded-a'), unique('killed-sharded-b')];
      await Promise.all([
        ...classic.map((c) => executor.subscribe(c, false)),
        ...sharded.map((c) => executor.subscribe(c, canShard)),
      ]);
      const killed = await backend.killClientsByName(subscriberName);
      expect(killed).toBeGreaterThan(0);
      await waitUntil(() => expect(heard.reconnects).toBe(killed));
      expect(await subscribedAmong([...classic, ...sharded])).toEqual([...classic, ...sharded].sort());
      for (const channel of classic) await backend.command(['PUBLISH', channel, 'after'], channel);
      for (const channel of sharded) await backend.command([spublish, channel, 'after'], channel);
      await waitUntil(() => expect(heard.messages).toHaveLength(4));
      expect(heard.messages.sort()).toEqual([...classic, ...sharded].sort().map((channel) => [channel, 'after']));
      expect(heard.reconnects).toBe(killed);
      await Promise.all([
        ...classic.map((c) => executor.unsubscribe(c, false)),
        ...sharded.map((c) => executor.unsubscribe(c, canShard)),
      ]);
      expect(await subscribedAmong([...classic, ...sharded])).toEqual([]);
    });

    it("closes only its own connections, idempotently, and leaves the user's client working", async () => {
      const subscriberName = `deadbolt-closed-${++sequence}`;
      const connected = await connect({ subscriberName });
      const { executor } = connected;
      expect(await backend.connectionsNamed(subscriberName)).toBe(0); // opened lazily
      const channels = [unique('close-a'), unique('close-b')];
      await executor.subscribe(channels[0]!, false);
      await executor.subscribe(channels[1]!, canShard);
      expect(await backend.connectionsNamed(subscriberName)).toBeGreaterThan(0);
      await executor.close();
      await executor.close();
      await waitUntil(() => expect(backend.connectionsNamed(subscriberName)).resolves.toBe(0));
      expect(await subscribedAmong(channels)).toEqual([]);
      expect(await connected.ping()).toBe('PONG');
      expect(await executor.eval('return 7', [unique('after-close')], [])).toBe(7);
      await expect(executor.subscribe(unique('close-c'), false)).rejects.toThrow();
    });

    it('gives the same reply shapes over every RESP version the driver speaks', async () => {
      const scripts = {
        nil: 'return nil',
        false: 'return false',
        integer: 'return 42',
        negative: 'return -7',
        string: "return 'text'",
        status: "return redis.status_reply('OK')",
        integers: 'return {1, 2, 3}',
        mixed: "return {1, 'two', {3}}",
        empty: 'return {}',
      };
      const replies = async (resp: 2 | 3) => {
        const { executor } = await connect({ resp });
        const key = unique(`resp${resp}`);
        const out: Record<string, unknown> = {};
        for (const [name, source] of Object.entries(scripts)) out[name] = await executor.eval(source, [key], []);
        return out;
      };
      const expected = {
        nil: null,
        false: null,
        integer: 42,
        negative: -7,
        string: 'text',
        status: 'OK',
        integers: [1, 2, 3],
        mixed: [1, 'two', [3]],
        empty: [],
      };
      for (const resp of respVersions(adapter, major)) expect(await replies(resp)).toEqual(expected);
    });
  });
});
