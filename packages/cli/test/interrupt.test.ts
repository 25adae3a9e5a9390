// Ctrl-C, as a user sends it: SIGINT to the built bin running as a child process, or Ctrl-C typed
// at the terminal it runs at. Every command stops, closes its connections and exits with 130,
// whether it is watching a lock, listing many, asking whether to unlock one, or waiting for a
// server that does not answer; and it leaves nothing behind: no lock deleted, no connection open,
// no half-written output. (The command takes no lock of its own: none can be left taken.)
import { createServer, type Server, type Socket } from 'node:net';
import { useBackendContext } from '@deadbolt/conformance';
import { waitFor } from '@deadbolt/test-harness';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAtTerminal, startBin, urlOf } from './helpers.js';

const CTRL_C = '\x03';
// Enough locks that listing them takes seconds (about 7 s for 20,000 on a local server, measured),
// so that Ctrl-C finds ls in the middle of them.
const MANY_LOCKS = 20_000;

// The command connects through ioredis whatever the application's driver: the topology is what differs.
describe.each(['standalone', 'cluster'] as const)('Ctrl-C on a %s server', (topology) => {
  const ctx = useBackendContext('ioredis', topology);
  let redis: Redis | Cluster;
  beforeAll(() => {
    const { nodes } = ctx.backend().spec;
    redis = topology === 'cluster' ? new Cluster([...nodes]) : new Redis(urlOf(ctx.backend()));
  });
  afterAll(() => redis.quit());

  // The client connections of every server, one line each.
  const clientList = async () => {
    const servers = redis instanceof Cluster ? redis.nodes('all') : [redis];
    return (await Promise.all(servers.map(async (server) => String(await server.call('CLIENT', 'LIST'))))).join('');
  };
  // The client connections of every server, but those this test reads them with.
  const ownConnections = () => (redis instanceof Cluster ? redis.nodes('all').length : 1);
  const otherClients = async () => (await clientList()).trimEnd().split('\n').length - ownConnections();
  // Nothing left open: once the command exited, the server has the connections it had before it.
  const connectionsBack = (before: number) =>
    waitFor(async () => (await otherClients()) <= before, {
      timeoutMs: 5_000,
      description: 'the command closed its connections',
    });

  it('stops watch with exit 130 after the looks it wrote', async () => {
    const client = await ctx.client({ clientId: 'cli-interrupted' });
    const name = ctx.uniqueName('interrupted');
    await client.lock(name).acquire({ owner: 'job-1' });
    const watching = startBin(['watch', name, '--interval', '100', '--json', '--url', urlOf(ctx.backend())]);
    await waitFor(() => watching.stdout().split('\n').length > 2, {
      timeoutMs: 15_000,
      description: 'two looks are written',
    });
    watching.child.kill('SIGINT');
    const run = await watching.exited;
    expect([run.code, run.stderr]).toEqual([130, 'deadbolt: interrupted\n']);
    // Each look whole: nothing cut off in the middle of a line.
    for (const line of run.stdout.trimEnd().split('\n')) expect(JSON.parse(line)).toMatchObject({ name });
  });

  it('stops ls in the middle of many locks with exit 130: nothing printed, every lock still there', async () => {
    // One hash slot for them all, so that one script writes them on a cluster too.
    const prefix = `{${ctx.uniqueName('many')}}`;
    await redis.eval(
      "for i = 1, tonumber(ARGV[2]) do redis.call('hset', ARGV[1] .. i, 'client-1:job', 1) end",
      1,
      `${prefix}:1`,
      `${prefix}:`,
      MANY_LOCKS,
    );
    const before = await otherClients();
    const listing = startBin(['ls', `${prefix}:*`, '--url', urlOf(ctx.backend())]);
    // Reading the locks it found: the scan is done, the table not yet written.
    await waitFor(async () => /cmd=(multi|exec|type|hlen|hgetall)\b/.test(await clientList()), {
      timeoutMs: 15_000,
      intervalMs: 5,
      description: 'ls reads the locks it found',
    });
    listing.child.kill('SIGINT');
    const run = await listing.exited;
    expect([run.code, run.stdout, run.stderr]).toEqual([130, '', 'deadbolt: interrupted\n']);
    expect(await redis.exists(`${prefix}:1`, `${prefix}:${MANY_LOCKS}`)).toBe(2);
    await redis.eval(
      "for i = 1, tonumber(ARGV[2]) do redis.call('del', ARGV[1] .. i) end",
      1,
      `${prefix}:1`,
      `${prefix}:`,
      MANY_LOCKS,
    );
    await connectionsBack(before);
  });

  describe('typed at a terminal', () => {
    it('stops watch with exit 130', async () => {
      const client = await ctx.client({ clientId: 'cli-at-terminal' });
      const name = ctx.uniqueName('watched');
      await client.lock(name).acquire({ owner: 'job-1' });
      const before = await otherClients();
      const watching = startAtTerminal(['watch', name, '--interval', '100', '--url', urlOf(ctx.backend())]);
      await waitFor(() => watching.stdout().includes('job-1'), { timeoutMs: 15_000, description: 'a look is shown' });
      watching.type(CTRL_C);
      const run = await watching.exited;
      expect(run.code).toBe(130);
      expect(run.stdout).toContain('deadbolt: interrupted');
      await connectionsBack(before);
    });

    it('at the unlock question: exit 130, and the lock stays with its holder', async () => {
      const client = await ctx.client({ clientId: 'cli-asked' });
      const name = ctx.uniqueName('asked');
      const held = await client.lock(name).acquire({ owner: 'job-1' });
      const before = await otherClients();
      const unlocking = startAtTerminal(['unlock', name, '--force', '--url', urlOf(ctx.backend())]);
      await waitFor(() => unlocking.stdout().includes('[y/N]'), {
        timeoutMs: 15_000,
        description: 'the question is asked',
      });
      unlocking.type(CTRL_C);
      const run = await unlocking.exited;
      expect(run.code).toBe(130);
      expect(run.stdout).toContain('deadbolt: interrupted');
      expect(run.stdout).not.toContain('unlocked');
      expect(await client.lock(name).isHeldBy('job-1')).toBe(true);
      await connectionsBack(before);
      await held.release();
    });
  });
});

describe('Ctrl-C', () => {
  describe('on a server that never answers', () => {
    // Accepts connections and reads what is sent, never replying: every command waits for it.
    let silent: Server;
    const sockets: Socket[] = [];
    let received = 0;
    beforeAll(async () => {
      silent = createServer((socket) => {
        sockets.push(socket);
        socket.on('data', () => received++);
      });
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    });
    afterAll(async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    });

    it.each([['ls'], ['show', 'a'], ['watch', 'a'], ['unlock', 'a', '--force', '--yes']])(
      'stops %s with exit 130',
      async (...argv) => {
        const address = silent.address();
        if (address === null || typeof address === 'string') throw new Error('no port');
        const before = received;
        const running = startBin([...argv, '--url', `redis://127.0.0.1:${address.port}`]);
        // Its first request sent: it waits for the reply.
        await waitFor(() => received > before, { timeoutMs: 15_000, description: 'its first request arrives' });
        running.child.kill('SIGINT');
        const run = await running.exited;
        expect([run.code, run.stdout, run.stderr]).toEqual([130, '', 'deadbolt: interrupted\n']);
      },
    );
  });
});
