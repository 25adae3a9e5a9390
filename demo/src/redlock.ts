// `pnpm demo redlock`: a RedLock over three independent redis-servers of its own (REDIS_URL plays
// no part: a RedLock needs separate deployments). The holder takes it on all three, then one
// server is killed with SIGKILL mid-hold, as a crash would. The holder loses that server's
// member and keeps the lock on a quorum of two; a second RedLock, as another process would have,
// still cannot get in. Once the holder releases, the second gets it from the two live servers.
import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
import { LockClient } from '@deadbolt/core';
import { RedLock, type HeldRedLock } from '@deadbolt/redlock';
import { startServers, waitFor } from '@deadbolt/test-harness';
import { Redis } from 'ioredis';
import { stamp, type Section } from './section.js';

const SERVERS = 3;
const NAME = 'demo:nightly-report';
// A short watchdog lease, so that the member on the killed server is found lost within seconds.
const CLIENT_OPTIONS = { watchdogTimeout: 1_500, commandTimeout: 3_000 };
// A dead server costs a round no more than nodeTimeout.
const REDLOCK_OPTIONS = { nodeTimeout: 300, retryDelay: 100, retryJitter: 50 };

/** One process's view of the three servers: a connection and a lock client on each. */
async function connect(urls: readonly string[]) {
  const servers = await Promise.all(
    urls.map(async (url) => {
      // Without the offline queue a call to the killed server fails at once instead of waiting
      // out commandTimeout, hence connect first; and the dead connection's socket, which never
      // closes cleanly, is not waited on for ioredis's default 2 s when the demo disconnects.
      const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, disconnectTimeout: 100 });
      // The killed server's connection keeps failing to reconnect; that is the point, not news.
      redis.on('error', () => {});
      await redis.connect();
      return redis;
    }),
  );
  const clients = servers.map((redis) => new LockClient(ioredisExecutor(redis), CLIENT_OPTIONS));
  return {
    redlock: () =>
      new RedLock(
        clients.map((client) => client.lock(NAME)),
        REDLOCK_OPTIONS,
      ),
    close: async () => {
      await Promise.all(clients.map((client) => client.close()));
      for (const redis of servers) redis.disconnect();
    },
  };
}

type View = Awaited<ReturnType<typeof connect>>;

const live = (held: HeldRedLock) => held.members.filter((member) => !member.signal.aborted).length;

export const redlockSection: Section = {
  name: 'redlock',
  kind: 'RedLock',
  about: `a lock on ${SERVERS} independent servers; one is SIGKILLed mid-hold and the quorum still excludes a rival`,
  async run() {
    const handle = await startServers(SERVERS);
    const opened: View[] = [];
    const open = async () => {
      const view = await connect(handle.urls);
      opened.push(view);
      return view;
    };
    try {
      // Two processes' worth of connections: the holder's, and a rival's.
      const holder = await open();
      const rival = await open();
      const started = performance.now();
      const log = (event: string) => console.log(`  ${stamp(started)}  ${event}`);
      console.log(
        `RedLock "${NAME}" on ${SERVERS} redis-servers: ${handle.nodes.map((node) => `port ${node.port} (pid ${node.pid})`).join(', ')}`,
      );
      const job = holder.redlock();
      const held = await job.acquire({ waitTime: 5_000 });
      // The quorum is enough to hold it; the last grant may join a moment later.
      await waitFor(() => held.members.length === SERVERS, { timeoutMs: 5_000, description: 'every server granted' });
      log(
        `the holder holds it on ${held.members.length} of ${SERVERS} servers (quorum ${job.quorum}), valid for ${held.validity} ms`,
      );

      const victim = handle.nodes[0];
      if (!victim) throw new Error('startServers returned no server');
      const pid = victim.pid;
      await victim.kill();
      log(`killed redis-server pid ${pid} (port ${victim.port}) with SIGKILL`);
      await waitFor(() => live(held) < SERVERS, {
        timeoutMs: 10_000,
        description: "the holder noticed the killed server's member lost",
      });
      const remaining = live(held);
      log(
        `the holder lost the killed server's member: still held on ${remaining} of ${SERVERS}, lock lost: ${held.signal.aborted}`,
      );

      const second = rival.redlock();
      const asked = performance.now();
      const intruder = await second.tryAcquire({ waitTime: 1_000 });
      log(
        `a second RedLock tries for ${(performance.now() - asked).toFixed(0)} ms: ${intruder ? 'GOT IN' : 'excluded'}`,
      );
      await intruder?.release();
      const stillHeld = !held.signal.aborted && remaining >= job.quorum;

      await held.release();
      log('the holder releases (the dead server cannot answer; the quorum suffices)');
      const after = await second.tryAcquire({ waitTime: 2_000 });
      log(`the second RedLock now: ${after ? `holds it on ${after.members.length} live servers` : 'still excluded'}`);
      await after?.release();

      const ok = stillHeld && intruder === null && after !== null;
      return {
        kind: 'RedLock',
        ok,
        text: ok
          ? `still held by ${remaining} of ${SERVERS} after a SIGKILL; a second RedLock excluded until the release`
          : `after a SIGKILL: held ${stillHeld}, second RedLock ${intruder ? 'got in' : 'excluded'}, after the release ${after ? 'got it' : 'did not'}`,
      };
    } finally {
      await Promise.all(opened.map((view) => view.close()));
      await handle.stop();
    }
  },
};
