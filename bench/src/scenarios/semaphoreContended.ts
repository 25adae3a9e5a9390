// Scenario 9b: a semaphore contended by 4 worker processes, each with a few tasks that take permits
// in turn and hold them briefly. The workers run scenario 3's job on the contender's semaphore
// view (contenders/semaphoreView.ts); the figures are a semaphore's: throughput, the wait, and
// whether more permits were ever held at once than the semaphore has.
import { LOCK } from '@deadbolt/conformance/kinds';
import { commandMixFigures } from '../commandMix.js';
import { counterDelta, serverCounters } from '../commandStats.js';
import type { Contender } from '../contenders/Contender.js';
import { PEER_SETTINGS } from '../contenders/peerSettings.js';
import { semaphoreViewId, type SemaphoreShape } from '../contenders/semaphoreView.js';
import { connect, disconnect, trivialScript, type Address } from '../drivers.js';
import type { ScenarioSpec } from '../report.js';
import { percentile, sharedNow } from '../stats.js';
import type { Hold } from '../workers/jobs.js';
import type { WorkerPool } from '../workers/WorkerPool.js';

// The workers start together this long after the last one is ready.
const START_DELAY_MS = 100;
// How long a run may take beyond its cap and drain before the pool gives up on a worker.
const WORKER_GRACE_MS = 30_000;

/** The shape of one contended run. */
export interface SemaphoreContendedOptions {
  /** Tasks per worker process. */
  readonly tasksPerProcess: number;
  /** How long each task holds its permits: long enough for holds to overlap, so the limit is tested. */
  readonly holdMs: number;
  readonly acquisitionsPerProcess: number;
  /** The run stops taking new acquisitions after this long. */
  readonly maxMs: number;
  /** How long after that the run waits for the acquisitions in flight. */
  readonly drainMs: number;
  /** Round trips of the idle floor, measured just before the run. */
  readonly idleFloorSamples: number;
}

/** Scenario 9b's table, for one semaphore shape. */
export function semaphoreContendedSpec(
  { limit, permits }: SemaphoreShape,
  processes: number,
  { tasksPerProcess, holdMs, drainMs }: SemaphoreContendedOptions,
): ScenarioSpec {
  return {
    id: `semaphore-contended-${permits}-of-${limit}`,
    title: `9b. Semaphore, contended: ${permits} of ${limit} permits per acquisition`,
    measures: `${processes} processes × ${tasksPerProcess} tasks take ${permits} permit(s) at a time of one semaphore of ${limit} permits, in turn, each holding them ${holdMs} ms (Deadbolt's \`Semaphore.acquire(${permits})\`; redis-semaphore's ${permits === 1 ? '`Semaphore`' : `\`MultiSemaphore\` with ${permits} permits`}). Acquisitions per second; the wait from asking to holding, p50 and p99; commands per acquisition (every command Redis ran, script-run ones included) and round trips (commands the clients sent, plus subscriptions); permits over the limit: acquisitions that, by the holds' own timestamps, took the permits held at once above ${limit} (must be 0); the tasks still waiting ${drainMs / 1000} s after the run stopped asking.`,
    floor:
      'one sequential EVALSHA round trip of a trivial script on the same driver, p50, measured idle just before the run; the wait p50 is also given in those round trips.',
    columns: [
      { key: 'acquisitionsPerSecond', label: 'acquisitions/s' },
      { key: 'waitP50Ms', label: 'wait p50 ms' },
      { key: 'waitP99Ms', label: 'wait p99 ms' },
      { key: 'floorIdleMs', label: 'floor idle ms' },
      { key: 'waitP50InIdleFloors', label: 'wait p50 / idle floor' },
      { key: 'commandsPerAcquisition', label: 'commands/acquisition' },
      { key: 'roundTripsPerAcquisition', label: 'round trips/acquisition' },
      { key: 'peakPermitsHeld', label: 'most permits held at once', across: 'max' },
      { key: 'overLimitGrants', label: 'grants over the limit', across: 'max' },
      { key: 'waitingAtEnd', label: 'still waiting at end', across: 'max' },
    ],
    headlines: [
      { key: 'acquisitionsPerSecond', better: 'higher' },
      { key: 'waitP99Ms', better: 'lower' },
    ],
    notes: ['Grants over the limit must be 0: the check that every contender kept to its permits.'],
    feature: 'semaphore',
  };
}

/**
 * One contended run of `contender`'s semaphore of `shape` on every worker of `pool`. The workers
 * connect and warm up first; the server's counters are read once they are ready and again when
 * they are done, so only the contention is counted.
 */
export async function semaphoreContended(
  pool: WorkerPool,
  contender: Contender,
  address: Address,
  shape: SemaphoreShape,
  options: SemaphoreContendedOptions,
) {
  const viewId = semaphoreViewId(contender.id, shape);
  const lockName = `bench:semaphore:${contender.id}:${shape.permits}:${sharedNow()}`;
  const workers = Array.from({ length: pool.size }, (_, index) => index);
  const floorIdleMs = await idleFloor(contender, address, options.idleFloorSamples);
  await Promise.all(
    workers.map((index) =>
      pool.run(index, 'handoffPrepare', {
        contender: viewId,
        address,
        kind: LOCK.id,
        lockName,
        leaseMs: PEER_SETTINGS.ttl,
      }),
    ),
  );
  const before = await serverCounters(address);
  const startAt = sharedNow() + START_DELAY_MS;
  const stopAt = startAt + options.maxMs;
  const payload = {
    tasks: options.tasksPerProcess,
    acquisitions: options.acquisitionsPerProcess,
    startAt,
    stopAt,
    drainMs: options.drainMs,
    holdMs: options.holdMs,
  };
  const perProcess = await Promise.all(
    workers.map((index) => pool.run(index, 'handoffRun', payload, options.maxMs + options.drainMs + WORKER_GRACE_MS)),
  );
  const server = counterDelta(before, await serverCounters(address));
  const holds = perProcess.flatMap((result) => result.holds);
  const acquisitions = holds.length;
  const waits = holds.map(([asked, acquired]) => acquired - asked);
  const seconds =
    (Math.max(...holds.map(([, , released]) => released)) - Math.min(...holds.map(([, acquired]) => acquired))) / 1000;
  const { peak, overLimit } = permitsHeld(holds, shape);
  const sum = (pick: (result: (typeof perProcess)[number]) => number) =>
    perProcess.reduce((total, result) => total + pick(result), 0);
  return {
    acquisitions,
    acquisitionsPerSecond: acquisitions / seconds,
    waitP50Ms: percentile(waits, 50),
    waitP99Ms: percentile(waits, 99),
    // The waits are bimodal: an attempt that finds a permit free waits a round trip, one that
    // does not waits for a release, about a hold. Where the p50 falls depends on this share.
    waitsUnderHoldPercent: (100 * waits.filter((wait) => wait < options.holdMs).length) / acquisitions,
    floorIdleMs,
    waitP50InIdleFloors: percentile(waits, 50) / floorIdleMs,
    commandsPerAcquisition: server.commands / acquisitions,
    roundTripsPerAcquisition: (sum((result) => result.commandsSent) + server.subscriptionCommands) / acquisitions,
    peakPermitsHeld: peak,
    overLimitGrants: overLimit,
    waitingAtEnd: sum((result) => result.waitingAtEnd),
    ...commandMixFigures(server.byCommand, acquisitions),
  };
}

/**
 * The most permits held at once by the holds' own timestamps (each hold from acquired to release
 * sent, which lies within the time the server counted it held), and how many grants took that
 * above the limit: a release counts before a grant at the same instant.
 */
export function permitsHeld(
  holds: readonly Hold[],
  { limit, permits }: SemaphoreShape,
): { peak: number; overLimit: number } {
  const events = holds.flatMap(([, acquired, released]) => [
    { at: acquired, change: permits },
    { at: released, change: -permits },
  ]);
  events.sort((a, b) => a.at - b.at || a.change - b.change);
  let held = 0;
  let peak = 0;
  let overLimit = 0;
  for (const { change } of events) {
    held += change;
    peak = Math.max(peak, held);
    if (change > 0 && held > limit) overLimit++;
  }
  return { peak, overLimit };
}

/** The p50 of `samples` sequential trivial round trips on a client of the contender's driver. */
async function idleFloor(contender: Contender, address: Address, samples: number): Promise<number> {
  const probe = await connect(contender.driver, address);
  try {
    const latencies: number[] = [];
    for (let i = 0; i < samples; i++) {
      const sent = performance.now();
      await trivialScript(probe);
      latencies.push(performance.now() - sent);
    }
    return percentile(latencies, 50);
  } finally {
    await disconnect(probe);
  }
}
