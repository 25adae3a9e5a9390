// What only the GLIDE adapter does, on real servers: refusing bad input by name, sending each
// script and command to its key's primary, restoring the server's error codes that GLIDE renames,
// and replying with the same shapes whatever the client's protocol and decoder. The executor
// contract itself (pub/sub, reconnects, failovers) is tested by packages/conformance on
// valkey-glide/standalone and valkey-glide/cluster.
import { InvalidArgumentError } from '@deadbolt/core';
import { startCluster, useStandalone, type ClusterHandle, type StandaloneTarget } from '@deadbolt/test-harness';
import {
  Decoder,
  GlideClient,
  GlideClusterClient,
  ProtocolVersion,
  type GlideClientConfiguration,
  type GlideClusterClientConfiguration,
} from '@valkey/valkey-glide';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { valkeyGlideExecutor } from '../src/index.js';

let sequence = 0;
const unique = (label: string) => `glide-test:{${label}-${process.pid}-${++sequence}}`;

describe('valkeyGlideExecutor on a standalone server', () => {
  let server: StandaloneTarget;
  const clients: GlideClient[] = [];
  const connect = async (extra: Partial<GlideClientConfiguration> = {}) => {
    const connection: GlideClientConfiguration = { addresses: [{ host: server.host, port: server.port }], ...extra };
    const client = await GlideClient.createClient(connection);
    clients.push(client);
    return { client, connection };
  };
  beforeAll(async () => {
    server = await useStandalone();
  });
  afterAll(async () => {
    for (const client of clients) client.close();
    await server?.stop();
  });

  it('refuses what is not a GLIDE client, naming `client`', () => {
    const create = () => valkeyGlideExecutor({} as GlideClient, { connection: { addresses: [{ host: 'localhost' }] } });
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(expect.objectContaining({ argument: 'client' }));
  });

  it.each([
    { kind: 'no options', options: undefined, argument: 'options.connection' },
    { kind: 'no connection', options: {}, argument: 'options.connection' },
    { kind: 'a connection without addresses', options: { connection: {} }, argument: 'options.connection' },
    {
      kind: 'an unknown option',
      options: { connection: { addresses: [{ host: 'x' }] }, subscriberNam: 'x' },
      argument: 'options.subscriberNam',
    },
    {
      kind: 'a subscriber name with a space',
      options: { connection: { addresses: [{ host: 'x' }] }, subscriberName: 'a b' },
      argument: 'options.subscriberName',
    },
  ])('refuses $kind, naming $argument', async ({ options, argument }) => {
    const { client } = await connect();
    const create = () => valkeyGlideExecutor(client, options as never);
    expect(create).toThrow(InvalidArgumentError);
    expect(create).toThrow(expect.objectContaining({ argument }));
  });

  it.each([
    { protocol: ProtocolVersion.RESP2, decoder: Decoder.String, label: 'RESP2' },
    { protocol: ProtocolVersion.RESP3, decoder: Decoder.String, label: 'RESP3' },
    { protocol: ProtocolVersion.RESP3, decoder: Decoder.Bytes, label: 'RESP3 with the Bytes decoder' },
  ])('replies as RESP2 does over $label', async ({ protocol, decoder }) => {
    const { client, connection } = await connect({ protocol, defaultDecoder: decoder });
    const executor = valkeyGlideExecutor(client, { connection });
    const key = unique('replies');
    expect(
      await executor.eval("redis.call('hset', KEYS[1], 'f', 'v', 'g', '2'); return {1, 'two', false, {3}}", [key], []),
    ).toEqual([1, 'two', null, [3]]);
    // HGETALL is a map under RESP3 (GLIDE's GlideRecord): flattened as RESP2 sends it.
    expect(await executor.command(key, ['HGETALL', key])).toEqual(['f', 'v', 'g', '2']);
    expect(await executor.command(key, ['SMEMBERS', unique('empty')])).toEqual([]);
    expect(await executor.command(key, ['GET', unique('missing')])).toBeNull();
    expect(String(await executor.command(key, ['INFO', 'memory']))).toMatch(/^# Memory/);
    await executor.close();
  });

  it.each([
    { reply: "redis.error_reply('ERR plain')", message: /^ERR plain/ },
    { reply: "redis.error_reply('NOPERM no')", message: /^NOPERM no/ },
    { reply: "redis.call('hget', KEYS[1], 'f')", message: /^WRONGTYPE Operation against a key/ },
    { reply: "redis.error_reply('BUSY x')", message: /^BUSY x/ },
  ])('keeps the server error code of $reply at the start of the message', async ({ reply, message }) => {
    const { client, connection } = await connect();
    const executor = valkeyGlideExecutor(client, { connection });
    const key = unique('errors');
    await executor.command(key, ['SET', key, 'string']);
    const error: unknown = await executor.eval(`return ${reply}`, [key], []).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(message);
    // GLIDE's own error stays reachable.
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('sends calls about one key in the order they were made, as the other drivers pipeline them', async () => {
    // GLIDE alone reorders requests made at the same moment on one client (tens out of 300).
    const { client, connection } = await connect();
    const executor = valkeyGlideExecutor(client, { connection });
    const key = unique('order');
    const pushes = Array.from({ length: 300 }, (_, i) =>
      i % 2 === 0
        ? executor.command(key, ['RPUSH', key, i])
        : executor.eval("return redis.call('rpush', KEYS[1], ARGV[1])", [key], [i]),
    );
    expect(await Promise.all(pushes)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    expect(await executor.command(key, ['LRANGE', key, 0, -1])).toEqual(
      Array.from({ length: 300 }, (_, i) => String(i)),
    );
  });

  it('rejects EVALSHA of an unknown script with NOSCRIPT, as core expects', async () => {
    const { client, connection } = await connect();
    const executor = valkeyGlideExecutor(client, { connection });
    const error: unknown = await executor.evalsha('f'.repeat(40), [unique('noscript')], []).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^NOSCRIPT /);
  });

  it("refuses a sharded subscription (GLIDE's standalone client has none), and closes only its own client", async () => {
    const { client, connection } = await connect();
    const executor = valkeyGlideExecutor(client, { connection, subscriberName: `glide-standalone-${process.pid}` });
    await expect(executor.subscribe(unique('sharded'), true)).rejects.toThrow(
      /no sharded pub\/sub on a standalone GlideClient/,
    );
    await executor.subscribe(unique('classic'), false);
    await executor.close();
    expect(await client.customCommand(['PING'])).toBe('PONG');
  });
});

describe('valkeyGlideExecutor on a cluster', () => {
  let cluster: ClusterHandle;
  let client: GlideClusterClient;
  let connection: GlideClusterClientConfiguration;
  beforeAll(async () => {
    cluster = await startCluster();
    connection = {
      addresses: cluster.startupNodes.map(({ host, port }) => ({ host, port })),
      protocol: ProtocolVersion.RESP2,
    };
    client = await GlideClusterClient.createClient(connection);
  });
  afterAll(async () => {
    client?.close();
    await cluster?.stop();
  });

  /** `cmdstat_<name>` calls per master port. */
  const calls = async (name: string) => {
    const counts = new Map<number, number>();
    for (const master of cluster.masters) {
      const stats = String(await master.command('INFO', 'commandstats'));
      counts.set(master.port, Number(new RegExp(`cmdstat_${name}:calls=(\\d+)`).exec(stats)?.[1] ?? 0));
    }
    return counts;
  };

  it('sends EVAL, EVALSHA and plain commands to the primary of the first key, and no other', async () => {
    const executor = valkeyGlideExecutor(client, { connection });
    expect(executor.isCluster).toBe(true);
    const source = "return redis.call('incr', KEYS[1])";
    // Tags a, b and c hash to slots on each of the three masters.
    for (const tag of ['a', 'b', 'c']) {
      const key = `{${tag}}:${unique('route')}`;
      const owner = (await cluster.masterForKey(key)).port;
      const before = { eval: await calls('eval'), evalsha: await calls('evalsha'), pttl: await calls('pttl') };
      expect(await executor.eval(source, [key], [])).toBe(1);
      const sha = (await executor.command(key, ['SCRIPT', 'LOAD', source])) as string;
      expect(await executor.evalsha(sha, [key], [])).toBe(2);
      expect(await executor.command(key, ['PTTL', key])).toBe(-1);
      for (const [name, counts] of Object.entries(before)) {
        const after = await calls(name);
        for (const [port, count] of after)
          expect(count - (counts.get(port) ?? 0), `${name} on ${port}`).toBe(port === owner ? 1 : 0);
      }
    }
    await executor.close();
  });

  it('subscribes sharded channels on the primary of their slot, and closes only its own client', async () => {
    const subscriberName = `glide-cluster-${process.pid}`;
    const executor = valkeyGlideExecutor(client, { connection, subscriberName });
    const messages: string[] = [];
    executor.listen({
      onMessage: (channel, message) => messages.push(`${channel}=${message}`),
      onSubscriberReconnect: () => undefined,
    });
    const channel = unique('sharded');
    await executor.subscribe(channel, true);
    const owner = await cluster.masterForKey(channel);
    expect(await owner.command('PUBSUB', 'SHARDCHANNELS', channel)).toEqual([channel]);
    await owner.command('SPUBLISH', channel, 'hello');
    await expect.poll(() => messages).toEqual([`${channel}=hello`]);
    await executor.close();
    expect(await client.customCommand(['PING'])).toBe('PONG');
  });
});
