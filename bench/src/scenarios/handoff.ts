import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { lockChannelName } from '@deadbolt/core';
import { connectExecutor, type ConnectionSpec } from '@deadbolt/conformance/connect';
import { allCommandsServed, roundTripsServed, subscriptions } from '../commandStats.js';
import { percentile, round, sharedNow } from '../stats.js';
import { scriptRoundTrip } from './floor.js';

const require = createRequire(import.meta.url);
const worker = fileURLToPath(new URL('../handoffWorker.ts', import.meta.url));

/** The lock kinds the handoff scenario runs: core's `Lock` and `@deadbolt/fair-lock`'s `FairLock`. */
export type HandoffKind = 'Lock' | 'FairLock';

/** One acquisition in a worker, on the machine's shared clock: asked, acquired, release sent. */
export type Hold = [asked: number, acquired: number, released: number];

/**
 * Scenario 3: `processes` processes x `tasks` tasks contend for one lock of `kind` with a
 * near-zero hold. Handoff latency is the time from one holder sending its release to the next
 * holder having the lock, across processes; compared with one script round trip measured in the
 * same run. Out-of-order grants count acquisitions that overtook an earlier request of their own
 * process (where the order of arrival is exact: one connection).
 */
export async function handoff(
  spec: ConnectionSpec,
  options: { kind: HandoffKind; processes: number; tasks: number; acquisitionsPerProcess: number },
) {
  const lockName = `bench:handoff:${options.kind}:${options.tasks}`;
  const address = spec.nodes[0]!;
  const floor = await measureFloor(spec);
  const tripsBefore = await roundTripsServed(address);
  const commandsBefore = await allCommandsServed(address);
  const startAt = sharedNow() + 1_500;
  let mostSubscriptions = 0;
  // The lock's channel, and for the fair lock every waiter's own channel behind it.
  const sampling = setInterval(() => {
    void subscriptions(address, lockChannelName(lockName)).then((n) => (mostSubscriptions = Math.max(mostSubscriptions, n)));
  }, 50);
  const perProcess = await Promise.all(
    Array.from({ length: options.processes }, () =>
      runWorker({ spec, kind: options.kind, lockName, tasks: options.tasks, acquisitions: options.acquisitionsPerProcess, startAt }),
    ),
  ).finally(() => clearInterval(sampling));
  const trips = (await roundTripsServed(address)) - tripsBefore;
  const commands = (await allCommandsServed(address)) - commandsBefore;
  const holds = perProcess.flat().sort((a, b) => a[1] - b[1]);
  const gaps: number[] = [];
  for (let i = 1; i < holds.length; i++) gaps.push(holds[i]![1] - holds[i - 1]![2]);
  const elapsed = holds.at(-1)![2] - holds[0]![1];
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
    commandsPerAcquisition: round(commands / holds.length),
    outOfOrderGrants: perProcess.reduce((sum, own) => sum + overtakes(own), 0),
    mostSubscriptionsPerProcess: round(mostSubscriptions / options.processes),
  };
}

/** How many of one process's acquisitions were granted while a request it made earlier still waited. */
function overtakes(holds: readonly Hold[]): number {
  const byGrant = [...holds].sort((a, b) => a[1] - b[1]);
  let count = 0;
  let earliestLaterAsk = Infinity;
  for (let i = byGrant.length - 1; i >= 0; i--) {
    const [asked] = byGrant[i]!;
    if (asked > earliestLaterAsk) count++;
    earliestLaterAsk = Math.min(earliestLaterAsk, asked);
  }
  return count;
}

async function measureFloor(spec: ConnectionSpec) {
  const { executor, close } = await connectExecutor(spec);
  try {
    return await scriptRoundTrip(executor, 2_000);
  } finally {
    await close();
  }
}

function runWorker(job: object): Promise<Hold[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', require.resolve('tsx'), worker], {
      env: { ...process.env, DEADBOLT_BENCH_JOB: JSON.stringify(job) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as Hold[]) : reject(new Error(`worker exited with ${code}`))));
  });
}
