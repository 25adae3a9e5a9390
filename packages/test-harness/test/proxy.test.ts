import { Cluster, Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  openProxyCount,
  RespConnection,
  sendCommand,
  startCluster,
  startFaultProxy,
  startProxies,
  startStandalone,
  stopAllProxies,
  waitFor,
  type ClusterHandle,
  type FaultProxy,
  type RedisNode,
} from '../src/index.js';

/** Round trip of one PING over an open raw connection, in milliseconds. */
async function pingTime(connection: RespConnection): Promise<number> {
  const started = performance.now();
  expect(await connection.command('PING')).toBe('PONG');
  return performance.now() - started;
}

/** An ioredis client through `proxy`, closed by the caller. */
function ioredisThrough(proxy: FaultProxy): Redis {
  const client = new Redis({ host: proxy.host, port: proxy.port, lazyConnect: true });
  client.on('error', () => undefined);
  return client;
}

/** How many listeners and sockets this process has open. */
function handles(): { servers: number; sockets: number } {
  const kinds = process.getActiveResourcesInfo();
  return {
    servers: kinds.filter((kind) => kind === 'TCPServerWrap').length,
    sockets: kinds.filter((kind) => kind === 'TCPSocketWrap').length,
  };
}

describe('fault proxy in front of a standalone server', () => {
  let node: RedisNode;
  let proxy: FaultProxy;
  let key = 0;
  const uniqueKey = (label: string) => `proxy-test:${label}:${++key}`;

  beforeAll(async () => {
    node = await startStandalone();
  });
  afterAll(async () => {
    await node.stop();
  });
  beforeEach(async () => {
    proxy = await startFaultProxy(node);
  });
  afterEach(async () => {
    await stopAllProxies();
    expect(openProxyCount()).toBe(0);
  });

  it('forwards requests and replies faithfully, and counts connections', async () => {
    expect(proxy.host).toBe('127.0.0.1');
    expect(proxy.port).not.toBe(node.port);
    const k = uniqueKey('plain');
    expect(await sendCommand(proxy, ['SET', k, 'v'])).toBe('OK');
    expect(await sendCommand(proxy, ['GET', k])).toBe('v');
    expect(await node.command('GET', k)).toBe('v');
    expect(proxy.counters).toEqual({
      connectionsAccepted: 2,
      connectionsRefused: 0,
      requestsCut: 0,
      requestsHeld: 0,
      requestsDelivered: 0,
      partitions: 0,
      resets: 0,
    });
  });

  it('adds latency in both directions or one, and removes it again', async () => {
    const connection = await RespConnection.connect(proxy);
    try {
      proxy.setLatency(150);
      // A request and its reply each wait 150 ms.
      expect(await pingTime(connection)).toBeGreaterThanOrEqual(295);
      proxy.setLatency(0);
      proxy.setLatency({ ms: 120, jitterMs: 30 }, ['toClient']);
      expect(await pingTime(connection)).toBeGreaterThanOrEqual(118);
      proxy.setLatency(0);
      // Order is kept under jitter: pipelined replies come back in order.
      proxy.setLatency({ ms: 1, jitterMs: 20 });
      const replies = await Promise.all(Array.from({ length: 20 }, (_, i) => connection.command('ECHO', String(i))));
      expect(replies).toEqual(Array.from({ length: 20 }, (_, i) => String(i)));
    } finally {
      connection.close();
    }
  });

  it('cuts a request after Redis ran it: its reply never arrives, and ioredis re-sends it after reconnecting', async () => {
    const counter = uniqueKey('counter');
    const before = uniqueKey('before');
    const after = uniqueKey('after');
    const client = ioredisThrough(proxy);
    try {
      await client.connect();
      const cut = proxy.cutAfterRequest({ marker: counter, commands: ['incr'] });
      const watchBefore = proxy.watchRequests({ marker: before });
      const watchAfter = proxy.watchRequests({ marker: after });
      // Sent together: the one before the cut gets its reply, the one after never reaches Redis.
      const [set, incremented, get] = await Promise.all([
        client.set(before, '1'),
        client.incr(counter),
        client.get(after),
      ]);
      expect({ set, incremented, get }).toEqual({ set: 'OK', incremented: 2, get: null });
      // The first INCR ran (the counter is 2, not 1) and its reply was swallowed; ioredis sent it again.
      expect(await node.command('GET', counter)).toBe('2');
      expect({ seen: cut.seen, cut: cut.cut, answered: cut.answered, shotsLeft: cut.shotsLeft }).toEqual({
        seen: 2,
        cut: 1,
        answered: 1,
        shotsLeft: 0,
      });
      expect({ seen: watchBefore.seen, answered: watchBefore.answered }).toEqual({ seen: 1, answered: 1 });
      expect({ seen: watchAfter.seen, answered: watchAfter.answered }).toEqual({ seen: 1, answered: 1 });
      expect(proxy.counters).toMatchObject({ connectionsAccepted: 2, requestsCut: 1, partitions: 0 });
      // The shot is spent: the next INCR passes.
      expect(await client.incr(counter)).toBe(3);
      expect(cut.cut).toBe(1);
    } finally {
      client.disconnect();
    }
  });

  it('cuts n times and partitions after each cut when asked, so that the re-send waits', async () => {
    const counter = uniqueKey('counter');
    const client = ioredisThrough(proxy);
    try {
      await client.connect();
      const cut = proxy.cutAfterRequest({ marker: counter, times: 2, partitionMs: 400 });
      const started = performance.now();
      // Cut, re-sent after the partition, cut again, re-sent after the second: three runs.
      expect(await client.incr(counter)).toBe(3);
      expect(performance.now() - started).toBeGreaterThanOrEqual(790);
      expect({ seen: cut.seen, cut: cut.cut, answered: cut.answered }).toEqual({ seen: 3, cut: 2, answered: 1 });
      expect(proxy.counters).toMatchObject({ requestsCut: 2, partitions: 2 });
      expect(proxy.counters.connectionsRefused).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it('keeps the bytes of each request it cut, so that a rule watching for them counts the re-sends', async () => {
    const counter = uniqueKey('resent');
    const client = ioredisThrough(proxy);
    try {
      await client.connect();
      const cut = proxy.cutAfterRequest({ marker: counter, partitionMs: 300 });
      const incremented = client.incr(counter);
      await cut.until((rule) => rule.cut === 1, 'the INCR was cut');
      const [request] = cut.requests;
      expect(request?.toString('latin1')).toBe(`*2\r\n$4\r\nincr\r\n$${counter.length}\r\n${counter}\r\n`);
      const resent = proxy.watchRequests({ marker: request ?? Buffer.alloc(0) });
      expect(await incremented).toBe(2);
      expect({ requests: cut.requests.length, resent: resent.seen, answered: resent.answered }).toEqual({
        requests: 1,
        resent: 1,
        answered: 1,
      });
    } finally {
      client.disconnect();
    }
  });

  it('holds a request back from Redis, drops the client, and delivers it late on the old connection', async () => {
    const counter = uniqueKey('held');
    const before = uniqueKey('before');
    const connection = await RespConnection.connect(proxy);
    const hold = proxy.holdRequest({ marker: counter, commands: ['incr'] });
    // Sent together: the one before the hold is answered, the held one never reaches Redis.
    const [set, incremented] = await Promise.all([
      connection.command('SET', before, '1'),
      connection.command('INCR', counter).catch((error: unknown) => error),
    ]);
    expect(set).toBe('OK');
    expect(incremented).toBeInstanceOf(Error);
    await waitFor(() => connection.closed, { timeoutMs: 2_000, description: "the client's side is closed" });
    expect(await node.command('EXISTS', counter)).toBe(0);
    // The client is gone; its connection to Redis stays open for the delivery.
    expect({
      held: hold.held,
      seen: hold.seen,
      shotsLeft: hold.shotsLeft,
      clients: proxy.openConnections,
      servers: proxy.serverConnections,
    }).toEqual({
      held: 1,
      seen: 1,
      shotsLeft: 0,
      clients: 0,
      servers: 1,
    });
    // Whatever happened meanwhile, the request arrives late and runs; its reply goes to the test.
    expect(await node.command('SET', counter, '41')).toBe('OK');
    const replies = await hold.deliver();
    expect(replies.map((reply) => reply.toString('latin1'))).toEqual([':42\r\n']);
    expect(await node.command('GET', counter)).toBe('42');
    expect({ held: hold.held, delivered: hold.delivered }).toEqual({ held: 0, delivered: 1 });
    await waitFor(() => proxy.serverConnections === 0, {
      timeoutMs: 2_000,
      description: 'the old connection closes after the late reply',
    });
    expect(proxy.counters).toMatchObject({ requestsHeld: 1, requestsDelivered: 1, requestsCut: 0 });
    await expect(hold.deliver()).rejects.toThrow(/no request is held/);
  });

  it('holds a request that ioredis then re-sends on a new connection: the late copy is a second run', async () => {
    const counter = uniqueKey('resent');
    const client = ioredisThrough(proxy);
    try {
      await client.connect();
      const hold = proxy.holdRequest({ marker: counter, commands: ['incr'] });
      // The connection drops without a reply; ioredis re-sends on a new one, which the spent rule lets through.
      expect(await client.incr(counter)).toBe(1);
      expect({ held: hold.held, seen: hold.seen }).toEqual({ held: 1, seen: 2 });
      expect(proxy.counters).toMatchObject({ connectionsAccepted: 2, requestsHeld: 1 });
      const [reply] = await hold.deliver();
      expect(reply?.toString('latin1')).toBe(':2\r\n');
      expect(await node.command('GET', counter)).toBe('2');
      // The client goes on, on its new connection.
      expect(await client.incr(counter)).toBe(3);
    } finally {
      client.disconnect();
    }
  });

  it('with duplicate, lets the request run now and delivers a copy of it late: one request, two runs, for any driver', async () => {
    const counter = uniqueKey('duplicate');
    const connection = await RespConnection.connect(proxy);
    const hold = proxy.holdRequest({ marker: counter, duplicate: true });
    // It ran, but the client never hears: its connection is dropped as by a cut.
    await expect(connection.command('INCR', counter)).rejects.toThrow();
    await hold.until((rule) => rule.held === 1, 'the copy is held');
    expect(await node.command('GET', counter)).toBe('1');
    await waitFor(() => connection.closed, { timeoutMs: 2_000, description: "the client's side is closed" });
    expect({ clients: proxy.openConnections, servers: proxy.serverConnections, cut: hold.cut }).toEqual({
      clients: 0,
      servers: 1,
      cut: 0,
    });
    const [reply] = await hold.deliver();
    expect(reply?.toString('latin1')).toBe(':2\r\n');
    expect(await node.command('GET', counter)).toBe('2');
    await waitFor(() => proxy.serverConnections === 0, {
      timeoutMs: 2_000,
      description: 'the old connection closes after the late reply',
    });
    expect(proxy.counters).toMatchObject({ requestsHeld: 1, requestsDelivered: 1, requestsCut: 0 });
  });

  it('matches a request only when it carries every marker given', async () => {
    const key = uniqueKey('markers');
    const connection = await RespConnection.connect(proxy);
    try {
      const hold = proxy.holdRequest({ marker: [key, 'second-marker'] });
      expect(await connection.command('SET', key, 'first-marker')).toBe('OK');
      expect(hold.seen).toBe(0);
      await expect(connection.command('SET', key, 'second-marker')).rejects.toThrow();
      expect({ seen: hold.seen, held: hold.held }).toEqual({ seen: 1, held: 1 });
      expect(await node.command('GET', key)).toBe('first-marker');
      await hold.deliver();
      expect(await node.command('GET', key)).toBe('second-marker');
    } finally {
      connection.close();
    }
  });

  it('stalls the client for dropClientAfterMs before dropping it: what it sends meanwhile never reaches Redis', async () => {
    const held = uniqueKey('stalled');
    const after = uniqueKey('after');
    const connection = await RespConnection.connect(proxy);
    const stallMs = 600;
    const hold = proxy.holdRequest({ marker: held, dropClientAfterMs: stallMs });
    const started = performance.now();
    const first = connection.command('SET', held, 'v').catch((error: unknown) => error);
    const second = connection.command('SET', after, 'v').catch((error: unknown) => error);
    await hold.until((rule) => rule.held === 1, 'the SET is held');
    await waitFor(() => proxy.pendingTimers === 1, { timeoutMs: 2_000, description: 'the drop is timed' });
    expect(connection.closed).toBe(false);
    expect(await first).toBeInstanceOf(Error);
    expect(await second).toBeInstanceOf(Error);
    expect(performance.now() - started).toBeGreaterThanOrEqual(stallMs - 10);
    expect(connection.closed).toBe(true);
    expect(await node.command('EXISTS', held, after)).toBe(0);
    await hold.deliver();
    expect({ held: await node.command('EXISTS', held), after: await node.command('EXISTS', after) }).toEqual({
      held: 1,
      after: 0,
    });
  });

  it('keeps a held request deliverable through a reset and a partition; closing the proxy drops it', async () => {
    const key = uniqueKey('kept');
    const hold = proxy.holdRequest({ marker: key });
    await expect(sendCommand(proxy, ['SET', key, 'v'], { timeoutMs: 2_000 })).rejects.toThrow();
    expect(hold.held).toBe(1);
    const open = await RespConnection.connect(proxy);
    await waitFor(() => proxy.openConnections === 1, { timeoutMs: 2_000, description: 'the other connection is open' });
    // The reset closes the one client connection open, not the held request's connection to Redis.
    expect(proxy.reset()).toBe(1);
    proxy.partition();
    await waitFor(() => open.closed, { timeoutMs: 2_000, description: 'the other connection is dropped' });
    expect({ held: hold.held, servers: proxy.serverConnections }).toEqual({ held: 1, servers: 1 });
    // Delivered while the partition is still in force: the old connection was established before it.
    await hold.deliver();
    expect(await node.command('GET', key)).toBe('v');
    proxy.heal();
    // One more, dropped undelivered by close: nothing is left behind.
    const dropped = uniqueKey('dropped');
    const second = proxy.holdRequest({ marker: dropped });
    await expect(sendCommand(proxy, ['SET', dropped, 'v'], { timeoutMs: 2_000 })).rejects.toThrow();
    expect(second.held).toBe(1);
    await proxy.close();
    expect({ held: second.held, servers: proxy.serverConnections, timers: proxy.pendingTimers }).toEqual({
      held: 0,
      servers: 0,
      timers: 0,
    });
    await expect(second.deliver()).rejects.toThrow(/no request is held/);
    expect(await node.command('EXISTS', dropped)).toBe(0);
  });

  it("checks a hold rule's options", () => {
    expect(() => proxy.holdRequest({ marker: 'x', times: -1 })).toThrow(RangeError);
    expect(() => proxy.holdRequest({ marker: 'x', dropClientAfterMs: Number.NaN })).toThrow(RangeError);
  });

  it('partitions: refuses new connections and drops open ones until healed', async () => {
    const open = await RespConnection.connect(proxy);
    proxy.partition();
    expect(proxy.partitioned).toBe(true);
    await waitFor(() => open.closed, { timeoutMs: 2_000, description: 'the open connection is dropped' });
    await expect(sendCommand(proxy, ['PING'], { timeoutMs: 1_000 })).rejects.toThrow();
    let healed = false;
    const whenHealed = proxy.whenHealed().then(() => (healed = true));
    await expect(sendCommand(proxy, ['PING'], { timeoutMs: 1_000 })).rejects.toThrow();
    expect(healed).toBe(false);
    proxy.heal();
    await whenHealed;
    expect(await sendCommand(proxy, ['PING'])).toBe('PONG');
    expect(proxy.counters).toMatchObject({ partitions: 1, connectionsRefused: 2 });
  });

  it('partitions for a while: a driver command waits for the heal and then succeeds', async () => {
    const client = ioredisThrough(proxy);
    try {
      await client.connect();
      proxy.partition({ durationMs: 600 });
      const started = performance.now();
      expect(await client.ping()).toBe('PONG');
      expect(performance.now() - started).toBeGreaterThanOrEqual(590);
      expect(proxy.partitioned).toBe(false);
      expect(proxy.counters.connectionsRefused).toBeGreaterThan(0);
    } finally {
      client.disconnect();
    }
  });

  it('resets: destroys every open connection now and accepts new ones', async () => {
    const first = await RespConnection.connect(proxy);
    const second = await RespConnection.connect(proxy);
    await waitFor(() => proxy.openConnections === 2, { timeoutMs: 2_000, description: 'both connections are open' });
    expect(proxy.reset()).toBe(2);
    await waitFor(() => first.closed && second.closed, {
      timeoutMs: 2_000,
      description: 'both connections are closed',
    });
    expect(await sendCommand(proxy, ['PING'])).toBe('PONG');
    expect(proxy.counters).toMatchObject({ resets: 1, connectionsAccepted: 3 });
  });

  it('leaves no listener, socket or timer behind when closed mid-fault', async () => {
    await stopAllProxies();
    // A closed listener's handle goes a moment after its close callback; no other test listens.
    await waitFor(() => handles().servers === 0, {
      timeoutMs: 2_000,
      intervalMs: 10,
      description: 'the closed proxies stop listening',
    });
    const baseline = handles();
    // One proxy holding a request back (a delayed chunk's timer), with a rule armed...
    const busy = await startFaultProxy(node);
    const connection = await RespConnection.connect(busy);
    busy.setLatency(2_000);
    const pending = connection.command('PING').catch((error: unknown) => error);
    busy.cutAfterRequest({ marker: 'nothing-matches-this', partitionMs: 5_000 });
    await waitFor(() => busy.pendingTimers === 1, { timeoutMs: 2_000, description: 'the PING is held back' });
    const during = handles();
    // The listener, the client's socket and the proxy's two: the check below could see them.
    expect(during.servers).toBeGreaterThan(baseline.servers);
    expect(during.sockets).toBeGreaterThanOrEqual(baseline.sockets + 3);
    // ...and one partitioned, waiting for its automatic heal.
    const parted = await startFaultProxy(node);
    parted.partition({ durationMs: 60_000 });
    expect(parted.pendingTimers).toBe(1);
    await Promise.all([busy.close(), parted.close()]);
    await busy.close();
    expect(await pending).toBeInstanceOf(Error);
    connection.close();
    const notAbove = (now: typeof baseline) => now.servers <= baseline.servers && now.sockets <= baseline.sockets;
    await waitFor(() => notAbove(handles()), {
      timeoutMs: 2_000,
      intervalMs: 20,
      description: `handles are back to at most ${JSON.stringify(baseline)} (now ${JSON.stringify(handles())})`,
    });
    for (const proxy of [busy, parted]) {
      expect({
        connections: proxy.openConnections,
        timers: proxy.pendingTimers,
        partitioned: proxy.partitioned,
      }).toEqual({
        connections: 0,
        timers: 0,
        partitioned: false,
      });
      await expect(sendCommand(proxy, ['PING'], { timeoutMs: 1_000 })).rejects.toThrow();
    }
    expect(openProxyCount()).toBe(0);
  });
});

describe('fault proxies in front of a cluster', () => {
  let cluster: ClusterHandle;

  beforeAll(async () => {
    cluster = await startCluster();
  });
  afterAll(async () => {
    await stopAllProxies();
    await cluster.stop();
  });

  it('maps every announced node address to its proxy, and ioredis (natMap) reaches every node through them', async () => {
    const proxies = await startProxies(cluster.nodes);
    expect(Object.keys(proxies.addressMap).sort()).toEqual(
      cluster.nodes.map((node) => `127.0.0.1:${node.port}`).sort(),
    );
    const client = new Cluster(
      proxies.addresses.map((address) => ({ ...address })),
      { natMap: { ...proxies.addressMap }, lazyConnect: true },
    );
    client.on('error', () => undefined);
    try {
      await client.connect();
      // Keys in every master's slot range.
      for (const tag of ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']) await client.set(`{${tag}}:k`, tag);
      expect(proxies.proxies.every((proxy) => proxy.counters.connectionsAccepted > 0)).toBe(true);
      // A rule shared by the group fires once, on whichever node owns the key.
      const cut = proxies.cutAfterRequest({ marker: '{a}:counter' });
      expect(await client.incr('{a}:counter')).toBeGreaterThanOrEqual(1);
      expect(cut.cut).toBe(1);
      expect(proxies.counters.requestsCut).toBe(1);
      const owner = await cluster.masterForKey('{a}:counter');
      expect(proxies.proxyFor(owner).counters.requestsCut).toBe(1);
      // A hold shared by the group holds on the node that owns the key, and delivers there.
      const hold = proxies.holdRequest({ marker: '{b}:held', commands: ['set'] });
      expect(await client.set('{b}:held', 'v')).toBe('OK');
      const holder = await cluster.masterForKey('{b}:held');
      expect({
        held: hold.held,
        onOwner: proxies.proxyFor(holder).counters.requestsHeld,
        inGroup: proxies.counters.requestsHeld,
      }).toEqual({
        held: 1,
        onOwner: 1,
        inGroup: 1,
      });
      expect(await client.del('{b}:held')).toBe(1);
      expect((await hold.deliver()).map((reply) => reply.toString('latin1'))).toEqual(['+OK\r\n']);
      expect(await holder.command('GET', '{b}:held')).toBe('v');
    } finally {
      client.disconnect();
      await proxies.close();
    }
  });
});
