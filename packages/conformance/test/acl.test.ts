// An ACL user granted exactly the documented rule for the plain Lock (docs/guides/deployments.md)
// works on every adapter: acquire, a waiter woken by pub/sub, release, watchdog renewal, with not
// one command refused. A user missing one permission gets a PermissionDeniedError that names it
// at first use: never a hang, never a bare driver error.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { nodeRedisExecutor } from '@deadbolt/adapter-node-redis';
import { valkeyGlideExecutor } from '@deadbolt/adapter-valkey-glide';
import { LockClient, PermissionDeniedError, type LockClientOptions } from '@deadbolt/core';
import { parseInfo, startCluster, startStandalone, type ClusterHandle, type RedisNode } from '@deadbolt/test-harness';
import { GlideClient, GlideClusterClient } from '@valkey/valkey-glide';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GLIDE_REQUEST_TIMEOUT_MS, type AdapterName } from '../src/backends/index.js';
import { eventually, RENEWED_WATCHDOG_MS, sleep } from '../src/timing.js';

/** The prefix every lock name of the application starts with; the rule grants nothing else. */
const PREFIX = 'acl:';
const PASSWORD = 'acl-test-password';

// The rule for the plain Lock, as the guide gives it: connection commands, the commands its
// scripts call, its key patterns and its channel pattern.
const CONNECTION = [
  '+eval',
  '+evalsha',
  '+info',
  '+ping',
  '+time',
  '+client|setname',
  '+subscribe',
  '+unsubscribe',
  '+ssubscribe',
  '+sunsubscribe',
];
const SCRIPTED = [
  '+del',
  '+exists',
  '+get',
  '+set',
  '+hdel',
  '+hexists',
  '+hget',
  '+hgetall',
  '+hincrby',
  '+hset',
  '+persist',
  '+pexpire',
  '+pttl',
  '+publish',
  '+spublish',
];
const KEYS = [
  `~${PREFIX}*`,
  `~deadbolt_holds:{${PREFIX}*`,
  `~deadbolt_request:{${PREFIX}*`,
  `~redisson_lock__channel:{${PREFIX}*`,
];
const CHANNELS = [`&redisson_lock__channel:{${PREFIX}*`];
const LOCK_RULE = [...CONNECTION, ...SCRIPTED, ...KEYS, ...CHANNELS];
// What a cluster client needs on top: the slot map, and CLUSTER INFO: the state ioredis's ready
// check reads (without it, ioredis reconnects for ever before any lock is asked for), and the epoch
// by which the GLIDE adapter tells a failover.
const CLUSTER_RULE = [...LOCK_RULE, '+cluster|slots', '+cluster|info'];
// What the GLIDE adapter needs on top (its README): CLIENT ID, by which its subscriber client tells
// a reconnect.
const GLIDE_RULE = ['+client|id'];
/** How soon a refused subscription fails its wait, well under GLIDE's 10 s confirmation timeout. */
const REFUSAL_REPORTED_MS = 5_000;
/** The rule for `adapter`: the documented one, and what the adapter's README adds. */
const ruleFor = (adapter: AdapterName, rule: readonly string[]) =>
  adapter === 'valkey-glide' ? [...rule, ...GLIDE_RULE] : rule;

/**
 * What drivers send on connect that Redis 7.2 and later (and Valkey) refuse without a grant:
 * CLIENT SETINFO, whose refusal the drivers ignore but ACL LOG records. Redis 7.0 has no such
 * subcommand and refuses a rule that names it.
 */
async function setinfoRule(node: RedisNode): Promise<string[]> {
  const version = parseInfo(String(await node.command('INFO', 'server'))).get('redis_version') ?? '';
  const [major = 0, minor = 0] = version.split('.').map(Number);
  return major > 7 || (major === 7 && minor >= 2) ? ['+client|setinfo'] : [];
}

/** Creates (or resets) `user` with `rule`, without the permissions in `withhold`. */
async function createUser(
  node: RedisNode,
  user: string,
  withhold: readonly string[] = [],
  rule: readonly string[] = LOCK_RULE,
): Promise<void> {
  const granted = [...rule, ...(await setinfoRule(node))].filter((permission) => !withhold.includes(permission));
  await node.command('ACL', 'SETUSER', user, 'reset', 'on', `>${PASSWORD}`, 'resetchannels', ...granted);
}

/** Which of `user`'s commands, keys or channels the server refused, from ACL LOG. */
async function refusedFor(node: RedisNode, user: string): Promise<string[]> {
  const log = await node.command('ACL', 'LOG', 128);
  if (!Array.isArray(log)) return [];
  return log.flatMap((entry) => {
    if (!Array.isArray(entry)) return [];
    const fields = new Map<string, unknown>();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), entry[i + 1]);
    return fields.get('username') === user ? [`${String(fields.get('reason'))} ${String(fields.get('object'))}`] : [];
  });
}

describe.each<AdapterName>(['ioredis', 'node-redis', 'valkey-glide'])('an ACL user on %s/standalone', (adapter) => {
  let node: RedisNode;
  const open: (() => Promise<void>)[] = [];
  let users = 0;

  beforeAll(async () => {
    node = await startStandalone();
  });
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((close) => close()));
  });
  afterAll(async () => {
    await node.stop();
  });

  /** A lock client logged in as `user` (the default user when absent), closed after the test. */
  async function clientAs(user: string | undefined, options?: LockClientOptions): Promise<LockClient> {
    const credentials = user === undefined ? {} : { username: user, password: PASSWORD };
    const ignore = () => undefined;
    if (adapter === 'valkey-glide') {
      const connection = {
        addresses: [{ host: node.host, port: node.port }],
        requestTimeout: GLIDE_REQUEST_TIMEOUT_MS,
        ...(user === undefined ? {} : { credentials: { username: user, password: PASSWORD } }),
      };
      const glide = await GlideClient.createClient(connection);
      const client = new LockClient(valkeyGlideExecutor(glide, { connection }), options);
      open.push(() => client.close().finally(() => glide.close()));
      return client;
    }
    if (adapter === 'ioredis') {
      const redis = new Redis({ host: node.host, port: node.port, ...credentials, lazyConnect: true });
      redis.on('error', ignore);
      await redis.connect();
      const client = new LockClient(ioredisExecutor(redis), options);
      open.push(() => client.close().finally(() => redis.quit().then(ignore, () => redis.disconnect())));
      return client;
    }
    const redis = createClient({ socket: { host: node.host, port: node.port }, ...credentials });
    redis.on('error', ignore);
    await redis.connect();
    const client = new LockClient(nodeRedisExecutor(redis), options);
    open.push(() => client.close().finally(() => redis.close().catch(() => redis.destroy())));
    return client;
  }

  const newUser = async (withhold: readonly string[] = []) => {
    const user = `${adapter.replace('-', '')}_user_${++users}`;
    await createUser(node, user, withhold, ruleFor(adapter, LOCK_RULE));
    return user;
  };
  const lockName = (label: string) => `${PREFIX}${label}:${users}`;

  it('with exactly the documented rule: acquire, a waiter woken by pub/sub, release and renewal, nothing refused', async () => {
    const user = await newUser();
    const [holder, waiter] = [await clientAs(user, { watchdogTimeout: RENEWED_WATCHDOG_MS }), await clientAs(user)];
    const renewed: number[] = [];
    holder.on('renewed', ({ holds }) => renewed.push(holds));
    const name = lockName('works');
    const held = await holder.lock(name).acquire();
    const waiting = waiter.lock(name).acquire({ waitTime: 20_000 });
    expect(await eventually(() => waiter.activity().channels.length === 1)).toBe(true);
    // Three watchdog ticks (every third of the timeout) keep the lease alive.
    await sleep(RENEWED_WATCHDOG_MS + 100);
    expect(renewed.length).toBeGreaterThan(0);
    expect(held.signal.aborted).toBe(false);
    const released = performance.now();
    await held.release();
    const next = await waiting;
    // Woken by the release message, not by the TTL (the waiter's lease is 30 s).
    expect(performance.now() - released).toBeLessThan(2_000);
    await next.release();
    expect(await refusedFor(node, user)).toEqual([]);
  });

  it('without +eval: the first acquire rejects naming the command', async () => {
    const client = await clientAs(await newUser(['+eval']));
    const failed = client.lock(lockName('no-eval')).acquire();
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({ missing: 'command', message: expect.stringContaining("'eval'") });
  });

  // The client reads the server's clock (TIME) at first use, for the deadlines its requests carry.
  it('without +time: the first acquire rejects naming the command', async () => {
    const client = await clientAs(await newUser(['+time']));
    const failed = client.lock(lockName('no-time')).acquire();
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({ missing: 'command', message: expect.stringContaining("'time'") });
  });

  // Redis does not undo what a script did before a refused command: the hash is deleted already
  // when PUBLISH is refused, so the lock is free, but nobody was told (waiters sleep to the TTL).
  it('without +publish: the release rejects naming the commands its script calls', async () => {
    const client = await clientAs(await newUser(['+publish']));
    const name = lockName('no-publish');
    const held = await client.lock(name).acquire();
    const failed = held.release();
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({
      missing: 'command',
      lockName: name,
      message: expect.stringContaining('publish'),
    });
  });

  it('without the hold markers key pattern: the first acquire rejects naming the keys', async () => {
    const client = await clientAs(await newUser([`~deadbolt_holds:{${PREFIX}*`]));
    const name = lockName('no-key');
    const failed = client.lock(name).acquire();
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({
      missing: 'key',
      message: expect.stringContaining(`deadbolt_holds:{${name}}`),
    });
    expect(await node.command('EXISTS', name)).toBe(0);
  });

  it('a lock name outside the granted pattern: the first acquire rejects naming the key', async () => {
    const client = await clientAs(await newUser());
    await expect(client.lock('elsewhere:lock').acquire()).rejects.toMatchObject({
      missing: 'key',
      message: expect.stringContaining('elsewhere:lock'),
    });
  });

  it('without the channel pattern: a waiting acquire rejects naming the channel, it does not hang', async () => {
    const holder = await clientAs(undefined);
    const waiter = await clientAs(await newUser(CHANNELS));
    const name = lockName('no-channel');
    const held = await holder.lock(name).acquire();
    const started = performance.now();
    const failed = waiter.lock(name).acquire({ waitTime: 60_000 });
    await expect(failed).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(failed).rejects.toMatchObject({
      missing: 'channel',
      message: expect.stringContaining(`redisson_lock__channel:{${name}}`),
    });
    // GLIDE does not report the refusal: its adapter asks the server after a second unconfirmed.
    expect(performance.now() - started).toBeLessThan(REFUSAL_REPORTED_MS);
    expect(waiter.activity().channels).toEqual([]);
    await held.release();
  });

  it('without +subscribe: a waiting acquire rejects naming the command', async () => {
    const holder = await clientAs(undefined);
    const waiter = await clientAs(await newUser(['+subscribe']));
    const name = lockName('no-subscribe');
    const held = await holder.lock(name).acquire();
    const started = performance.now();
    const failed = waiter.lock(name).acquire({ waitTime: 60_000 });
    await expect(failed).rejects.toMatchObject({
      name: 'PermissionDeniedError',
      missing: 'command',
      message: expect.stringContaining("'subscribe'"),
    });
    expect(performance.now() - started).toBeLessThan(REFUSAL_REPORTED_MS);
    expect(waiter.activity().channels).toEqual([]);
    await held.release();
  });
});

describe.each<AdapterName>(['ioredis', 'node-redis', 'valkey-glide'])('an ACL user on %s/cluster', (adapter) => {
  let cluster: ClusterHandle;
  const open: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterEach(async () => {
    await Promise.allSettled(open.splice(0).map((close) => close()));
  });
  afterAll(async () => {
    await cluster.stop();
  });

  async function clientAs(user: string, options?: LockClientOptions): Promise<LockClient> {
    const ignore = () => undefined;
    const seeds = cluster.startupNodes.map((seed) => ({ ...seed }));
    if (adapter === 'valkey-glide') {
      const connection = {
        addresses: seeds,
        requestTimeout: GLIDE_REQUEST_TIMEOUT_MS,
        credentials: { username: user, password: PASSWORD },
      };
      const glide = await GlideClusterClient.createClient(connection);
      const client = new LockClient(valkeyGlideExecutor(glide, { connection }), options);
      open.push(() => client.close().finally(() => glide.close()));
      return client;
    }
    if (adapter === 'ioredis') {
      const redis = new Cluster(seeds, { lazyConnect: true, redisOptions: { username: user, password: PASSWORD } });
      redis.on('error', ignore);
      await redis.connect();
      const client = new LockClient(ioredisExecutor(redis), options);
      open.push(() => client.close().finally(() => redis.quit().then(ignore, () => redis.disconnect())));
      return client;
    }
    const redis = createCluster({
      rootNodes: seeds.map((socket) => ({ socket })),
      defaults: { username: user, password: PASSWORD },
    });
    redis.on('error', ignore);
    await redis.connect();
    const client = new LockClient(nodeRedisExecutor(redis), options);
    open.push(() => client.close().finally(() => redis.close().catch(() => redis.destroy())));
    return client;
  }

  it('with exactly the documented rule and the cluster permissions: sharded pub/sub wakes a waiter, renewal runs, nothing refused', async () => {
    const user = `${adapter.replace('-', '')}_cluster_user`;
    await Promise.all(cluster.nodes.map((node) => createUser(node, user, [], ruleFor(adapter, CLUSTER_RULE))));
    const [holder, waiter] = [await clientAs(user, { watchdogTimeout: RENEWED_WATCHDOG_MS }), await clientAs(user)];
    const renewed: number[] = [];
    holder.on('renewed', ({ holds }) => renewed.push(holds));
    const name = `${PREFIX}cluster`;
    const held = await holder.lock(name).acquire();
    const waiting = waiter.lock(name).acquire({ waitTime: 20_000 });
    expect(await eventually(() => waiter.activity().channels.length === 1)).toBe(true);
    await sleep(RENEWED_WATCHDOG_MS + 100);
    expect(renewed.length).toBeGreaterThan(0);
    const released = performance.now();
    await held.release();
    await (await waiting).release();
    expect(performance.now() - released).toBeLessThan(2_000);
    for (const node of cluster.nodes) expect(await refusedFor(node, user)).toEqual([]);
  });

  it('without the channel pattern: a waiting acquire rejects naming the sharded channel, it does not hang', async () => {
    const [granted, withheld] = [
      `${adapter.replace('-', '')}_cluster_holder`,
      `${adapter.replace('-', '')}_cluster_no_channel`,
    ];
    await Promise.all(cluster.nodes.map((node) => createUser(node, granted, [], ruleFor(adapter, CLUSTER_RULE))));
    await Promise.all(
      cluster.nodes.map((node) => createUser(node, withheld, CHANNELS, ruleFor(adapter, CLUSTER_RULE))),
    );
    const [holder, waiter] = [await clientAs(granted), await clientAs(withheld)];
    const name = `${PREFIX}cluster-no-channel`;
    const held = await holder.lock(name).acquire();
    const started = performance.now();
    const failed = waiter.lock(name).acquire({ waitTime: 60_000 });
    await expect(failed).rejects.toMatchObject({
      name: 'PermissionDeniedError',
      missing: 'channel',
      message: expect.stringContaining(`redisson_lock__channel:{${name}}`),
    });
    expect(performance.now() - started).toBeLessThan(REFUSAL_REPORTED_MS);
    expect(waiter.activity().channels).toEqual([]);
    await held.release();
  });
});
