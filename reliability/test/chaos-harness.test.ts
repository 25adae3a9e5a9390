// The chaos harness's own checks (issue 32): test hosts in network namespaces, a silent partition,
// a faked client clock and a server's clock jumped, and cleanup after a failing test.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { isAlive, waitFor } from '@deadbolt/test-harness';
import { ChaosRedis } from '../src/chaos/ChaosRedis.js';
import { namespaceNames } from '../src/chaos/ipCommand.js';
import { startWorkerOn } from '../src/chaos/placeWorker.js';
import { ProcessClock } from '../src/chaos/ProcessClock.js';
import { ServerClock } from '../src/chaos/ServerClock.js';
import { SOCKET_PROBE_JOB_VARIABLE, type SocketProbeEvent } from '../src/chaos/socketProbeEvents.js';
import { useChaos } from '../src/chaos/useChaos.js';
import { recordFigures } from '../src/results/figures.js';

const run = promisify(execFile);
const PROBE = fileURLToPath(new URL('../src/workers/socketProbe.ts', import.meta.url));

describe('chaos harness', () => {
  const chaos = useChaos();
  // What the failing test below made, for the test after it to look for.
  const leftBehind = { namespaces: [] as string[], pids: [] as number[] };

  test('an isolated host goes silent both ways: no reply, no reset, and the same socket answers once healed', async () => {
    const network = await chaos.network();
    const [server, client] = [await network.addHost('server'), await network.addHost('client')];
    const redis = await ChaosRedis.start(server);
    const probe = startWorkerOn<SocketProbeEvent>(client, PROBE, SOCKET_PROBE_JOB_VARIABLE, redis.address);
    await probe.next((event) => event.event === 'ready');
    const answers = () => probe.events.filter((event) => event.event !== 'ready').map((event) => event.event);
    const waitAnswers = (count: number) =>
      waitFor(() => answers().length >= count, { timeoutMs: 10_000, intervalMs: 10, description: `${count} answers` });

    probe.send('ping 2000');
    await waitAnswers(1);
    await server.isolate();
    probe.send('ping 1500');
    await waitAnswers(2);
    // The server still runs and answers the test process, which is on no host.
    expect(await redis.command(['PING'])).toBe('PONG');
    await server.heal();
    probe.send('ping 8000');
    await waitAnswers(3);
    expect(answers()).toEqual(['pong', 'silent', 'pong']);
    probe.send('exit');
    await probe.finished();
    recordFigures(import.meta.url, 'any', { faults: { 'host isolated (link down)': 1 } });
  });

  test('hosts split off together reach each other and nobody else, silently; the same sockets answer once joined again', async () => {
    const network = await chaos.network();
    const [server, splitClient, mainClient] = [
      await network.addHost('server'),
      await network.addHost('split'),
      await network.addHost('main'),
    ];
    const redis = await ChaosRedis.start(server);
    const probes = [splitClient, mainClient].map((host) =>
      startWorkerOn<SocketProbeEvent>(host, PROBE, SOCKET_PROBE_JOB_VARIABLE, redis.address),
    );
    await Promise.all(probes.map((probe) => probe.next((event) => event.event === 'ready')));
    const answersOf = (probe: (typeof probes)[number]) =>
      probe.events.filter((event) => event.event !== 'ready').map((event) => event.event);
    // Each probe's answer to one more ping.
    const pingAll = async (waitMs: number) => {
      const expected = probes.map((probe) => answersOf(probe).length + 1);
      for (const probe of probes) probe.send(`ping ${waitMs}`);
      await waitFor(() => probes.every((probe, index) => answersOf(probe).length >= (expected[index] ?? 0)), {
        timeoutMs: 15_000,
        intervalMs: 10,
        description: 'every probe answers',
      });
      return probes.map((probe) => answersOf(probe).at(-1));
    };
    expect(await pingAll(2000)).toEqual(['pong', 'pong']);
    await Promise.all([server.splitOff(), splitClient.splitOff()]);
    expect(await pingAll(1500)).toEqual(['pong', 'silent']);
    await Promise.all([server.rejoin(), splitClient.rejoin()]);
    expect(await pingAll(8000)).toEqual(['pong', 'pong']);
    for (const probe of probes) probe.send('exit');
    await Promise.all(probes.map((probe) => probe.finished()));
  });

  test('a faked wall clock moves the time of day of a client process and jumps while it runs; its timers keep true time', async () => {
    const clock = chaos.clock(new ProcessClock('+3600', 'wall'));
    const read = () => clockReading(clock);
    const ahead = await read();
    expect(ahead.wallAheadSeconds).toBeGreaterThan(3500);
    expect(ahead.timerMs).toBeGreaterThanOrEqual(200);
    // Node's start-up counts too: a timer on a faked monotonic clock would be off by far more.
    expect(ahead.timerMs).toBeLessThan(2_000);
    clock.set('-3600');
    expect((await read()).wallAheadSeconds).toBeLessThan(-3500);
  });

  test("a server's wall clock jumps forward while it runs: its keys expire by it, its timers keep true time", async () => {
    const clock = chaos.clock(new ServerClock());
    const network = await chaos.network();
    const redis = await ChaosRedis.start(await network.addHost('server'), { environment: clock.environment });
    const serverSeconds = async () => Number(((await redis.command(['TIME'])) as string[])[0]);
    expect(Math.abs((await serverSeconds()) - Date.now() / 1000)).toBeLessThan(5);
    await redis.command(['SET', 'leased', 'x', 'PX', '30000']);
    clock.jump(60_000);
    expect((await serverSeconds()) - Date.now() / 1000).toBeGreaterThan(55);
    expect(await redis.command(['GET', 'leased'])).toBeNull();
    // Its event loop runs on the monotonic clock: a blocking call still times out on true time.
    const started = performance.now();
    expect(await redis.command(['BLPOP', 'nothing', '0.3'])).toBeNull();
    expect(performance.now() - started).toBeGreaterThanOrEqual(250);
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  test.fails('a test that fails with hosts, a server and a worker placed', async () => {
    const network = await chaos.network();
    const [server, client] = [await network.addHost('server'), await network.addHost('client')];
    const redis = await ChaosRedis.start(server);
    const probe = startWorkerOn<SocketProbeEvent>(client, PROBE, SOCKET_PROBE_JOB_VARIABLE, redis.address);
    await probe.next((event) => event.event === 'ready');
    await server.isolate();
    leftBehind.namespaces.push(...network.namespaces);
    leftBehind.pids.push(redis.pid, probe.pid);
    throw new Error('this test fails on purpose');
  });

  test('after the failing test, none of its namespaces and processes is left', async () => {
    expect(leftBehind.namespaces).toHaveLength(3);
    const names = await namespaceNames();
    expect(leftBehind.namespaces.filter((name) => names.includes(name))).toEqual([]);
    expect(leftBehind.pids.filter((pid) => pid === 0 || isAlive(pid))).toEqual([]);
  });
});

/**
 * Starts a Node process on `clock` that reads its wall clock and sets a 200 ms timer: how far its
 * wall clock is ahead of this process's, and how long the timer took on the machine's true clock.
 */
async function clockReading(clock: ProcessClock): Promise<{ wallAheadSeconds: number; timerMs: number }> {
  const started = performance.now();
  const { stdout } = await run(
    process.execPath,
    ['-e', 'const s = Date.now(); setTimeout(() => console.log(s), 200)'],
    { env: { ...process.env, ...clock.environment } },
  );
  return { wallAheadSeconds: (Number(stdout) - Date.now()) / 1000, timerMs: performance.now() - started };
}
