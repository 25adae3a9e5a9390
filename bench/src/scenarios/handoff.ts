import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { lockChannelName } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '@deadbolt/conformance';
import { roundTripsServed, subscribers } from '../commandStats.js';
import { percentile, round, sharedNow } from '../stats.js';
import { scriptRoundTrip } from './floor.js';

const require = createRequire(import.meta.url);
const worker = fileURLToPath(new URL('../handoffWorker.ts', import.meta.url));

/**
 * Scenario 3: `processes` processes x `tasks` tasks contend for one lock with a near-zero hold.
 * Handoff latency is the time from one holder sending its release to the next holder having the
 * lock, across processes; compared with one script round trip measured in the same run.
 */
export async function handoff(spec: ConnectionSpec, options: { processes: number; tasks: number; acquisitionsPerProcess: number }) {
  const lockName = `bench:handoff:${options.tasks}`;
  const address = spec.nodes[0]!;
  const floor = await measureFloor(spec);
  const tripsBefore = await roundTripsServed(address);
  const startAt = sharedNow() + 1_500;
  let mostSubscribers = 0;
  const sampling = setInterval(() => {
    void subscribers(address, lockChannelName(lockName)).then((n) => (mostSubscribers = Math.max(mostSubscribers, n)));
  }, 50);
  const perProcess = await Promise.all(
    Array.from({ length: options.processes }, () =>
      runWorker({ spec, lockName, tasks: options.tasks, acquisitions: options.acquisitionsPerProcess, startAt }),
    ),
  ).finally(() => clearInterval(sampling));
  const trips = (await roundTripsServed(address)) - tripsBefore;
  const holds = perProcess.flat().sort((a, b) => a[0] - b[0]);
  const gaps: number[] = [];
  for (let i = 1; i < holds.length; i++) gaps.push(holds[i]![0] - holds[i - 1]![1]);
  const elapsed = holds.at(-1)![1] - holds[0]![0];
  const p50 = percentile(gaps, 50);
  return {
    waiters: options.processes * options.tasks,
    acquisitions: holds.length,
    acquisitionsPerSecond: round((holds.length / elapsed) * 1000),
    handoffP50Ms: round(p50),
    handoffP99Ms: round(percentile(gaps, 99)),
    floorRoundTripMs: round(floor.p50),
    handoffP50InRoundTrips: round(p50 / floor.p50),
    roundTripsPerAcquisition: round(trips / holds.length),
    mostSubscriptionsPerProcess: round(mostSubscribers / options.processes),
  };
}

async function measureFloor(spec: ConnectionSpec) {
  const { executor, close } = await connectExecutor(spec);
  try {
    return await scriptRoundTrip(executor, 2_000);
  } finally {
    await close();
  }
}

function runWorker(job: object): Promise<[number, number][]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', require.resolve('tsx'), worker], {
      env: { ...process.env, DEADBOLT_BENCH_JOB: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as [number, number][]) : reject(new Error(`worker exited with ${code}`))));
  });
}
