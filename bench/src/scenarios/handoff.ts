import type { RegisteredKind } from '@deadbolt/conformance/kinds';
import { commandMixFigures } from '../commandMix.js';
import { counterDelta, serverCounters, subscriptions } from '../commandStats.js';
import type { Contender } from '../contenders/Contender.js';
import { connect, disconnect, trivialScript, type Address, type Connection } from '../drivers.js';
import { sleep } from '../measure.js';
import type { Column, ScenarioSpec } from '../report.js';
import { percentile, sharedNow } from '../stats.js';
import type { Hold } from '../workers/jobs.js';
import type { WorkerPool } from '../workers/WorkerPool.js';

/** The shape of one handoff run. */
export interface HandoffOptions {
  /** The plain lock or the fair lock. */
  readonly kind: RegisteredKind;
  /** Tasks per worker process; waiters = tasks × processes. */
  readonly tasks: number;
  readonly acquisitionsPerProcess: number;
  /** The run stops taking new acquisitions after this long. */
  readonly maxMs: number;
  /** How long after that the run waits for the acquisitions in flight. */
  readonly drainMs: number;
  /** How long each task holds the lock before releasing it: 0 for a near-zero hold. */
  readonly holdMs: number;
  /** Round trips of the idle floor, measured just before the run. */
  readonly idleFloorSamples: number;
  /**
   * The lease of locks kept alive by a watchdog (Deadbolt, node-redisson): a waiter that misses
   * its wake-up waits at most this long for the holder's TTL.
   */
  readonly leaseMs: number;
}

const FLOOR =
  'one sequential EVALSHA round trip of a trivial script on the same driver, p50: measured idle just before the run, and under load by a probe running beside the contending processes (one call per millisecond).';

/** Every figure of a handoff run, as a table column: each scenario shows those it is about. */
export const HANDOFF_COLUMNS: readonly Column[] = [
  { key: 'acquisitionsPerSecond', label: 'acquisitions/s' },
  { key: 'handoffP50Ms', label: 'handoff p50 ms' },
  { key: 'handoffP99Ms', label: 'handoff p99 ms' },
  { key: 'toAnotherProcessPercent', label: 'to another process %' },
  { key: 'toAnotherProcessP50Ms', label: 'to another process p50 ms' },
  { key: 'toAnotherProcessP99Ms', label: 'to another process p99 ms' },
  { key: 'waitP50Ms', label: 'wait p50 ms' },
  { key: 'waitP99Ms', label: 'wait p99 ms' },
  { key: 'floorIdleMs', label: 'floor idle ms' },
  { key: 'floorLoadedMs', label: 'floor loaded ms' },
  { key: 'handoffP50InIdleFloors', label: 'p50 / idle floor' },
  { key: 'handoffP50InLoadedFloors', label: 'p50 / loaded floor' },
  { key: 'commandsPerAcquisition', label: 'commands/acquisition' },
  { key: 'commandsPerSecond', label: 'Redis commands/s' },
  { key: 'roundTripsPerAcquisition', label: 'round trips/acquisition' },
  { key: 'outOfOrderGrants', label: 'out-of-order grants' },
  { key: 'overlappingGrants', label: 'overlapping grants', across: 'max' },
  { key: 'waitingAtEnd', label: 'still waiting at end' },
];

/** Scenario 3 or 4's table, for one number of waiters. */
export function handoffSpec(
  kind: RegisteredKind,
  waiters: number,
  { leaseMs, drainMs }: { leaseMs: number; drainMs: number },
): ScenarioSpec {
  const { fair } = kind;
  return {
    id: `${fair ? 'fair-' : ''}handoff-${waiters}`,
    title: `${fair ? '4. Fair lock' : '3. Contended handoff'}: ${waiters} waiters`,
    measures: `4 processes × ${waiters / 4} tasks take one ${fair ? 'fair ' : ''}lock in turn with a near-zero hold. Handoff latency: from one holder sending its release to the next acquisition, whoever makes it; "to another process" is the share of acquisitions that moved the lock to another process than the one that just released it, and their latency alone: the handoff a distributed lock is for. Wait: from asking to holding, per acquisition. Still waiting at end: tasks whose acquisition had not returned ${drainMs / 1000} s after the run stopped asking (the run does not wait longer). Commands per acquisition: every command Redis ran (from INFO commandstats, script-run ones included); round trips: commands the clients sent. Out-of-order grants: acquisitions that overtook an earlier request of the same process. Locks kept alive by a watchdog get a ${leaseMs / 1000} s lease, so a waiter that misses its wake-up waits at most that long.`,
    floor: FLOOR,
    columns: HANDOFF_COLUMNS.filter(({ key }) => key !== 'commandsPerSecond'),
    headlines: [
      { key: 'acquisitionsPerSecond', better: 'higher' },
      { key: 'waitP99Ms', better: 'lower' },
      { key: 'toAnotherProcessP50Ms', better: 'lower' },
    ],
    notes: [
      'With a near-zero hold, a lock that lets the releasing process take it again at once (the polling peers) mostly measures its own uncontended re-acquisition as "handoff", with a low "to another process %" while the other processes keep waiting (the wait p99). Deadbolt\'s plain lock passes the lock between the tasks of one process a few times (local hand-offs), then lets the other processes go first. Deadbolt is compared on throughput and wait p99 side by side, and on the handoff to another process.',
      'Overlapping grants (a grant before the previous holder started to release) must be 0: the check that every contender excluded.',
    ],
    ...(fair ? { feature: 'fair' as const } : {}),
  };
}

/**
 * One handoff run of `contender` with one worker process per pool worker. The workers connect
 * and warm up first; the server's counters are read once they are ready and again when they
 * are done, so only the contention is counted.
 */
export async function handoff(pool: WorkerPool, contender: Contender, address: Address, options: HandoffOptions) {
  const lockName = `bench:handoff:${contender.id}:${options.kind.id}:${options.tasks}`;
  const workers = Array.from({ length: pool.size }, (_, index) => index);
  const probe = await connect(contender.driver, address);
  try {
    const idle = await roundTrips(probe, options.idleFloorSamples, 0);
    await Promise.all(
      workers.map((index) =>
        pool.run(index, 'handoffPrepare', {
          contender: contender.id,
          address,
          kind: options.kind.id,
          lockName,
          leaseMs: options.leaseMs,
        }),
      ),
    );
    const before = await serverCounters(address);
    const startAt = sharedNow() + 100;
    const stopAt = startAt + options.maxMs;
    const run = Promise.all(
      workers.map((index) =>
        pool.run(
          index,
          'handoffRun',
          {
            tasks: options.tasks,
            acquisitions: options.acquisitionsPerProcess,
            startAt,
            stopAt,
            drainMs: options.drainMs,
            holdMs: options.holdMs,
          },
          options.maxMs + options.drainMs + 30_000,
        ),
      ),
    );
    const watching = watch(run, address, probe, startAt);
    const perProcess = await run;
    const { loaded, peakSubscriptions } = await watching;
    const server = counterDelta(before, await serverCounters(address));
    // The probe's loaded floor is one EVALSHA per sample: not the contender's.
    const probeCommands = { evalsha: loaded.length };
    return {
      ...handoffFigures(
        perProcess,
        { idle, loaded },
        server.commands - loaded.length,
        server.subscriptionCommands,
        peakSubscriptions,
      ),
      ...commandMixFigures(
        server.byCommand,
        perProcess.reduce((sum, result) => sum + result.holds.length, 0),
        probeCommands,
      ),
    };
  } finally {
    await disconnect(probe);
  }
}

/**
 * The figures of one run, from each worker's holds and command count, the floors, the commands
 * Redis ran for the run (the probe's taken out) and the subscription commands among them.
 */
function handoffFigures(
  perProcess: readonly {
    readonly holds: readonly Hold[];
    readonly commandsSent: number;
    readonly waitingAtEnd: number;
  }[],
  floors: { readonly idle: readonly number[]; readonly loaded: readonly number[] },
  commands: number,
  subscriptionCommands: number,
  peakSubscriptions: number,
) {
  // Every hold with the worker process that made it, in the order the lock was granted.
  const holds = perProcess
    .flatMap((result, worker) => result.holds.map((hold) => ({ hold, worker })))
    .sort((a, b) => a.hold[1] - b.hold[1]);
  const gaps: number[] = [];
  const toAnotherProcess: number[] = [];
  for (let i = 1; i < holds.length; i++) {
    const gap = holds[i]!.hold[1] - holds[i - 1]!.hold[2];
    gaps.push(gap);
    if (holds[i]!.worker !== holds[i - 1]!.worker) toAnotherProcess.push(gap);
  }
  const waits = holds.map(({ hold: [asked, acquired] }) => acquired - asked);
  const acquisitions = holds.length;
  const seconds = (holds.at(-1)!.hold[2] - holds[0]!.hold[1]) / 1000;
  const p50 = percentile(gaps, 50);
  const sum = (pick: (result: (typeof perProcess)[number]) => number) =>
    perProcess.reduce((total, result) => total + pick(result), 0);
  return {
    acquisitions,
    acquisitionsPerSecond: acquisitions / seconds,
    handoffP50Ms: p50,
    handoffP99Ms: percentile(gaps, 99),
    toAnotherProcessPercent: (toAnotherProcess.length / gaps.length) * 100,
    toAnotherProcessP50Ms: percentile(toAnotherProcess, 50),
    toAnotherProcessP99Ms: percentile(toAnotherProcess, 99),
    // A grant before the previous holder even started to release: the lock failed to exclude.
    overlappingGrants: gaps.filter((gap) => gap < 0).length,
    waitP50Ms: percentile(waits, 50),
    waitP99Ms: percentile(waits, 99),
    floorIdleMs: percentile(floors.idle, 50),
    floorLoadedMs: percentile(floors.loaded, 50),
    handoffP50InIdleFloors: p50 / percentile(floors.idle, 50),
    handoffP50InLoadedFloors: p50 / percentile(floors.loaded, 50),
    commandsPerAcquisition: commands / acquisitions,
    commandsPerSecond: commands / seconds,
    roundTripsPerAcquisition: (sum((result) => result.commandsSent) + subscriptionCommands) / acquisitions,
    outOfOrderGrants: sum((result) => overtakes(result.holds)),
    waitingAtEnd: sum((result) => result.waitingAtEnd),
    peakSubscriptionsPerProcess: peakSubscriptions / perProcess.length,
  };
}

/** While `run` lasts: the floor under load, one round trip per millisecond, and the peak subscription count. */
async function watch(run: Promise<unknown>, address: Address, probe: Connection, startAt: number) {
  let running = true;
  const finished = run.finally(() => (running = false));
  finished.catch(() => undefined);
  await sleep(startAt - sharedNow());
  let peakSubscriptions = 0;
  const sampling = (async () => {
    while (running) {
      peakSubscriptions = Math.max(peakSubscriptions, await subscriptions(address));
      await sleep(50);
    }
  })();
  const loaded: number[] = [];
  while (running) loaded.push(...(await roundTrips(probe, 1, 1)));
  await sampling;
  return { loaded, peakSubscriptions };
}

/** `count` sequential round trips of the trivial script, `pauseMs` apart: their latencies in ms. */
async function roundTrips(connection: Connection, count: number, pauseMs: number): Promise<number[]> {
  const latencies: number[] = [];
  for (let i = 0; i < count; i++) {
    const sent = performance.now();
    await trivialScript(connection);
    latencies.push(performance.now() - sent);
    if (pauseMs > 0) await sleep(pauseMs);
  }
  return latencies;
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
