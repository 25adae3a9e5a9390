// Subscriptions follow their slot to its new master, on both ioredis majors: after a manual
// failover (the old master stays up as a replica, the server drops its sharded channels) and after
// the master is killed and its replica takes over.
import { startCluster, type ClusterHandle } from '@deadbolt/test-harness';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ioredisExecutor } from '../src/index.js';
import { connectClient, type Major } from './clients.js';

let cluster: ClusterHandle;
beforeAll(async () => {
  cluster = await startCluster({ replicas: 1 });
});
afterAll(() => cluster?.stop());

describe.each([5, 6] as Major[])('ioredis %i', (major) => {
  it('keeps delivering after a manual failover and after the master is killed', async () => {
    const client = await connectClient(major, cluster);
    const executor = ioredisExecutor(client, { subscriberName: `failover-${major}` });
    const heard = { messages: new Set<string>(), reconnects: 0 };
    executor.listen({
      onMessage: (channel, message) => heard.messages.add(`${channel}=${message}`),
      onSubscriberReconnect: () => heard.reconnects++,
    });
    const [classic, sharded] = [`failover:{${major}}:classic`, `failover:{${major}}:sharded`];
    await executor.subscribe(classic, false);
    await executor.subscribe(sharded, true);

    // Publishes until both messages arrive: a message sent while the channel moves is lost by design.
    const deliveredAfter = async (label: string) => {
      await vi.waitFor(
        async () => {
          const owner = await cluster.masterForKey(sharded);
          await owner.command('SPUBLISH', sharded, label);
          await owner.command('PUBLISH', classic, label);
          expect([...heard.messages]).toEqual(expect.arrayContaining([`${classic}=${label}`, `${sharded}=${label}`]));
        },
        { timeout: 20_000, interval: 250 },
      );
    };

    const promoted = await cluster.failover(await cluster.masterForKey(sharded));
    await deliveredAfter('after-manual-failover');
    // The old master dropped the sharded channel: messages may have been lost, so it must tell.
    expect(heard.reconnects).toBeGreaterThan(0);

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
      await executor.close();
      await client.quit();
    }
  });
});
