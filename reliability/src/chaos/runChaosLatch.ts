import { fileURLToPath } from 'node:url';
import { sleep, waitFor } from '@deadbolt/test-harness';
import { expect } from 'vitest';
import { monotonicMicros } from '../clock.js';
import { FaultLog } from '../faults/FaultLog.js';
import { finishWorkers } from '../hammer/runHammer.js';
import type { WorkerProcess } from '../process/WorkerProcess.js';
import type { ChaosHost } from './ChaosNetwork.js';
import { CHAOS_LATCH_JOB_VARIABLE, type ChaosLatchEvent, type ChaosLatchJob } from './chaosPermitEvents.js';
import { grantsWhileCutOff, hostsGrantedAfter, type PlacedWorkers } from './chaosMeasures.js';
import { serverNowOf, workerSpecOf, workerStoreOf, type ChaosReadBackReach } from './chaosReach.js';
import { NOTHING_COUNTED, recordChecked, recordedIfUnfinished, type ChaosSplitFigures } from './chaosRecord.js';
import { startWorkerOn } from './placeWorker.js';
import type { ChaosFault } from './runChaosHammer.js';

const SCRIPT = fileURLToPath(new URL('../workers/chaosLatch.ts', import.meta.url));
// Between countdowns, so that every waiter is waiting on the channel when the next one comes.
const COUNT_PAUSE_MS = 300;
// After the fault starts and before the countdown sent into it: the host is cut off by then.
const INTO_FAULT_MS = 200;
// How long one countdown may take to come back, also one sent into a cut-off.
const COUNTED_TIMEOUT_MS = 30_000;

/**
 * One chaos run of a count-down latch: waiters on every client host, countdowns asked of them in
 * turn, on one lock server (or a Sentinel deployment); the countdowns sent counted at the store.
 */
export interface ChaosLatchOptions extends ChaosReadBackReach {
  readonly clients: readonly ChaosHost[];
  /** The latch's count, and the waiters on each client host. */
  readonly count: number;
  readonly waiters: number;
  readonly commandTimeout: number;
  /** Unique to the run: the latch's name. */
  readonly label: string;
  /** Injected once this many countdowns came back; the next one is sent into it. */
  readonly fault: ChaosFault;
  readonly countdownsBefore: number;
}

/** What a chaos latch run measured. */
export interface LatchMeasures {
  /** Waiters let through before `count` countdowns were sent: the latch opened early. */
  readonly earlyOpens: number;
  readonly opened: number;
  /** Countdown calls made in all: `count`, and one more for each call of unknown outcome that did not run. */
  readonly calls: number;
  /** Waiters let through while the server was cut off. */
  readonly opensWhileCutOff: number;
  /** Whether the countdown sent into the cut-off came back only after it ended. */
  readonly countdownHeldByFault: boolean;
  /**
   * The count left once every countdown came back (a failover lost that many): counted down that
   * many more times, by the waiters' hosts in turn, so that the waiters may be let through.
   */
  readonly countdownsLost: number;
  /** Whether the latch's key is gone at the end (its count reached 0). */
  readonly openAtEnd: boolean;
  readonly recoveredHosts: number;
  readonly clientHosts: number;
}

/** What a chaos latch run saw: its faults, its measures, and the openings as grants of each host. */
export interface ChaosLatchReport {
  readonly log: FaultLog;
  readonly measures: LatchMeasures;
  /** An opening is what a latch grants: as `acquired` events. */
  readonly openings: PlacedWorkers;
}

/**
 * Runs chaos latch workers (`src/workers/chaosLatch.ts`) on the client hosts, counts the latch
 * down through them one at a time (one countdown sent into the fault, and once they all came back
 * one more for each the master lost), and measures every opening.
 */
export async function runChaosLatch(options: ChaosLatchOptions): Promise<ChaosLatchReport> {
  const name = `${options.label}:latch`;
  const job: ChaosLatchJob = {
    spec: workerSpecOf(options),
    clientOptions: { commandTimeout: options.commandTimeout },
    name,
    count: options.count,
    store: workerStoreOf(options),
    sentKey: `${name}:sent`,
    waiters: options.waiters,
  };
  const hostOf = new Map<number, string>();
  const workers = options.clients.map((host) => {
    const worker = startWorkerOn<ChaosLatchEvent>(host, SCRIPT, CHAOS_LATCH_JOB_VARIABLE, job);
    hostOf.set(worker.pid, host.name);
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.next((event) => event.event === 'ready')));
  for (const worker of workers) worker.send('go');
  const log = new FaultLog();
  let sentIntoFault = { at: 0 };
  const workerAt = (index: number) => workers[index % workers.length] ?? fail('a latch run needs a client host');
  for (let index = 0; index < options.count; index++) {
    await sleep(COUNT_PAUSE_MS);
    const worker = workerAt(index);
    if (index !== options.countdownsBefore) {
      await countDown(worker);
      continue;
    }
    const fault = options.fault.inject({ log, nextGrant: () => Promise.resolve() });
    await sleep(INTO_FAULT_MS);
    sentIntoFault = await countDown(worker);
    await fault;
  }
  const server = await serverNowOf(options);
  const countdownsLost = Number(await server.command(['GET', name]));
  for (let index = 0; index < countdownsLost; index++) await countDown(workerAt(index));
  for (const worker of workers) worker.send('end');
  await finishWorkers(workers);
  const opened = workers.flatMap((worker) =>
    worker.events.filter((event): event is Extract<ChaosLatchEvent, { event: 'opened' }> => event.event === 'opened'),
  );
  const cutOffs = log.cutOffs;
  const openings = {
    workers: workers.map((worker) => ({ pid: worker.pid, events: worker.events.map(asGrant) })),
    hostOf,
  };
  return {
    log,
    openings,
    measures: {
      earlyOpens: opened.filter((open) => open.sent < options.count).length,
      opened: opened.length,
      calls: workers
        .flatMap((worker) => worker.events)
        .reduce((sum, event) => sum + (event.event === 'counted' ? event.calls : 0), 0),
      opensWhileCutOff: grantsWhileCutOff(opened, cutOffs),
      countdownHeldByFault: cutOffs.some((cut) => sentIntoFault.at > cut.to),
      countdownsLost,
      openAtEnd: Number(await server.command(['EXISTS', name])) === 0,
      recoveredHosts: hostsGrantedAfter(openings, log.lastHeal),
      clientHosts: options.clients.length,
    },
  };
}

// Sends `count` to `worker` and resolves with its `counted` event.
async function countDown(worker: WorkerProcess<ChaosLatchEvent>): Promise<{ at: number }> {
  const before = worker.events.filter((event) => event.event === 'counted').length;
  const sent = monotonicMicros();
  worker.send('count');
  await waitFor(() => worker.events.filter((event) => event.event === 'counted').length > before, {
    timeoutMs: COUNTED_TIMEOUT_MS,
    intervalMs: 10,
    description: `countdown sent at ${sent} came back`,
  });
  const counted = worker.events.filter((event) => event.event === 'counted').at(-1);
  return { at: counted !== undefined && 'at' in counted ? counted.at : 0 };
}

const asGrant = (event: ChaosLatchEvent) => (event.event === 'opened' ? { ...event, event: 'acquired' } : event);

/**
 * What must hold of every latch run, also where a failover may lose countdowns: no waiter let
 * through before the count's countdowns were sent, every waiter let through in the end (once
 * counted down), the latch open then, and every client host's waiters let through after the heal.
 */
export function expectLatchKept(measures: LatchMeasures, options: ChaosLatchOptions): void {
  expect(measures.earlyOpens, 'waiters let through before the count was counted down').toBe(0);
  expect(measures.opened, 'waiters let through').toBe(options.waiters * options.clients.length);
  expect(measures.openAtEnd, 'the latch is open at the end').toBe(true);
  expect(measures.recoveredHosts, 'client hosts whose waiters were let through after the heal').toBe(
    measures.clientHosts,
  );
}

/**
 * What must hold when the latch's server goes silent: what {@link expectLatchKept} checks, no
 * waiter let through while cut off, the countdown sent into the cut-off back only after it, and
 * no countdown lost.
 */
export function expectLatchHeld(measures: LatchMeasures, options: ChaosLatchOptions): void {
  expectLatchKept(measures, options);
  expect(measures.opensWhileCutOff, 'waiters let through while the server was cut off').toBe(0);
  expect(measures.countdownHeldByFault, 'the countdown sent into the cut-off came back after it').toBe(true);
  expect(measures.countdownsLost, 'countdowns the master lost').toBe(0);
}

function fail(message: string): never {
  throw new Error(message);
}

/** A latch scenario of issue 32 on one adapter: its run, its record for `results/chaos.*`, its checks. */
export interface ChaosLatchScenario {
  readonly testFile: string;
  readonly scenario: string;
  readonly tried: string;
  readonly run: ChaosLatchOptions;
  /** What must hold instead of the silent-host checks ({@link expectLatchHeld}): for a split with a failover. */
  readonly check?: (measures: LatchMeasures, run: ChaosLatchOptions) => void;
  /** What a split with a failover saw, from the run's openings; none when absent. */
  readonly split?: (openings: PlacedWorkers) => ChaosSplitFigures;
}

/** Runs the scenario, records it for `results/chaos.*` (with whether it held), then checks it. */
export async function runChaosLatchScenario(scenario: ChaosLatchScenario): Promise<LatchMeasures> {
  const started = performance.now();
  const { run } = scenario;
  const head = {
    testFile: scenario.testFile,
    scenario: scenario.scenario,
    adapter: run.adapter,
    lock: 'CountDownLatch',
    tried: scenario.tried,
    leaseMs: 0,
    commandTimeoutMs: run.commandTimeout,
  };
  const { log, measures, openings } = await recordedIfUnfinished(head, started, runChaosLatch(run));
  // A latch has no holders and no lease: what it promises is counted as overlaps (early opens).
  const record = {
    ...NOTHING_COUNTED,
    ...head,
    faults: log.total,
    operations: measures.opened,
    overlaps: measures.earlyOpens,
    grantsWhileCutOff: measures.opensWhileCutOff,
    recoveredHosts: measures.recoveredHosts,
    clientHosts: measures.clientHosts,
    latchCount: run.count,
    countdownCalls: measures.calls,
    countdownsLost: measures.countdownsLost,
    ...(scenario.split === undefined ? {} : { split: scenario.split(openings) }),
  };
  recordChecked(record, started, () => (scenario.check ?? expectLatchHeld)(measures, run));
  return measures;
}
