// The executor's subscriptions through server faults, on every adapter with both majors of each
// driver: a standalone server killed and restarted, and a cluster slot moving to a new master
// (a manual failover, then the master killed and its replica taking over). Each backend has
// servers of its own, since the tests kill them.
import type { Executor } from '@deadbolt/core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  BACKENDS,
  majorsOf,
  shardedOnStandalone,
  startBackend,
  type AdapterName,
  type Backend,
  type ConnectedExecutor,
  type DriverMajor,
  type TopologyName,
} from '../src/backends/index.js';

let sequence = 0;
const unique = (label: string) => `executor-faults:{${label}-${process.pid}-${++sequence}}`;
const waitUntil = (check: () => Promise<void> | void) => vi.waitFor(check, { timeout: 10_000, interval: 25 });

/** Records what an executor reports. */
function recorder(executor: Executor) {
  const heard = { messages: new Set<string>(), reconnects: 0 };
  executor.listen({
    onMessage: (channel, message) => heard.messages.add(`${channel}=${message}`),
    onSubscriberReconnect: () => heard.reconnects++,
  });
  return heard;
}

/** Starts servers of the enclosing block's own (a cluster gets a replica per master). */
function useDedicatedBackend(adapter: AdapterName, topology: TopologyName): () => Backend {
  let backend: Backend | undefined;
  beforeAll(async () => {
    backend = await startBackend(adapter, topology, { dedicated: true, replicas: 1 });
  });
  afterAll(() => backend?.close());
  return () => {
    if (backend === undefined) throw new Error('backend not started');
    return backend;
  };
}

const connect = (backend: Backend, major: DriverMajor): Promise<ConnectedExecutor> =>
  backend.connect({ subscriberName: `deadbolt-faults-${++sequence}`, major });

const on = (topology: TopologyName) => BACKENDS.filter((entry) => entry.topology === topology);

describe.each(on('standalone'))('executor faults on $adapter/standalone', ({ adapter }) => {
  const started = useDedicatedBackend(adapter, 'standalone');

  describe.each(majorsOf(adapter))(`${adapter} %i`, (major) => {
    it('survives a server restart, and forgets a channel unsubscribed while it is down', async () => {
      const backend = started();
      const connected = await connect(backend, major);
      const { executor } = connected;
      const heard = recorder(executor);
      const [kept, dropped] = [unique('restart-kept'), unique('restart-dropped')];
      // GLIDE's standalone client has no sharded pub/sub (backends/matrix.ts, shardedOnStandalone).
      const sharded = shardedOnStandalone(adapter);
      await executor.subscribe(kept, sharded);
      await executor.subscribe(dropped, false);
      const [server] = backend.nodes;
      await server!.kill();
      try {
        // Offline, unsubscribing must not wait for the server to come back.
        await executor.unsubscribe(dropped, false);
      } finally {
        await server!.restart();
      }
      await waitUntil(() => expect(heard.reconnects).toBe(1));
      expect(await backend.pubsubChannels('executor-faults:*')).toEqual([kept]);
      await backend.command([sharded ? 'SPUBLISH' : 'PUBLISH', kept, 'back']);
      await waitUntil(() => expect([...heard.messages]).toEqual([`${kept}=back`]));
      await executor.unsubscribe(kept, sharded);
      expect(await backend.pubsubChannels('executor-faults:*')).toEqual([]);
      await connected.close();
    });
  });
});

describe.each(on('cluster'))('executor faults on $adapter/cluster', ({ adapter }) => {
  const started = useDedicatedBackend(adapter, 'cluster');

  describe.each(majorsOf(adapter))(`${adapter} %i`, (major) => {
    it('keeps delivering after a manual failover and after the master is killed', async () => {
      const cluster = started().cluster!;
      const connected = await connect(started(), major);
      const { executor } = connected;
      const heard = recorder(executor);
      const [classic, sharded] = [unique('failover-classic'), unique('failover-sharded')];
      await executor.subscribe(classic, false);
      await executor.subscribe(sharded, true);

      // Publishes until both messages arrive: a message sent while the channel moves is lost by design.
      const deliveredAfter = (label: string) =>
        vi.waitFor(
          async () => {
            const owner = await cluster.masterForKey(sharded);
            await owner.command('SPUBLISH', sharded, label);
            await owner.command('PUBLISH', classic, label);
            expect([...heard.messages]).toEqual(expect.arrayContaining([`${classic}=${label}`, `${sharded}=${label}`]));
          },
          { timeout: 20_000, interval: 250 },
        );

      const promoted = await cluster.failover(await cluster.masterForKey(sharded));
      await deliveredAfter('after-manual-failover');
      // The old master dropped the sharded channel: messages may have been lost, so it must tell
      // (GLIDE's link tells at the probe after the one that saw the failover).
      await vi.waitFor(() => expect(heard.reconnects).toBeGreaterThan(0), { timeout: 5_000 });

      await promoted.kill();
      try {
        await cluster.waitUntilHealthy();
        // Whether the channels had moved to the killed node or stayed on its (now promoted) replica,
        // they are delivered again.
        await deliveredAfter('after-kill');
      } finally {
        // Back as a replica, so that the next test has a replica to fail over to.
        await promoted.restart();
        await cluster.waitUntilHealthy();
        await connected.close();
      }
    });
  });
});
