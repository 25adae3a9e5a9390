import { fileURLToPath } from 'node:url';
import { holdMarkersKey } from '@deadbolt/core/kit';
import { permitTimeoutsKey } from '@deadbolt/semaphore';
import { sleep } from '@deadbolt/test-harness';
import { FaultLog } from '../faults/FaultLog.js';
import { finishWorkers, Progress } from '../hammer/runHammer.js';
import type { WorkerProcess } from '../process/WorkerProcess.js';
import type { PermitKind } from '../semaphore/permitKinds.js';
import type { ChaosHost } from './ChaosNetwork.js';
import { CHAOS_PERMIT_JOB_VARIABLE, type ChaosPermitEvent, type ChaosPermitJob } from './chaosPermitEvents.js';
import type { ChaosRedis } from './ChaosRedis.js';
import {
  serverNowOf,
  workerClientOptions,
  workerSpecOf,
  workerStoreOf,
  type ChaosReadBackReach,
} from './chaosReach.js';
import { startWorkerOn } from './placeWorker.js';
import { nextGrant, type ChaosFault } from './runChaosHammer.js';

const SCRIPT = fileURLToPath(new URL('../workers/chaosPermits.ts', import.meta.url));
// Once the workers end, a leased kind's permits are read when every lease surely ended: a
// watchdog lease, and this much more.
const LEASE_END_SLACK_MS = 500;
// Once the faults are over, workers granted no permit for this long (far beyond a hold, a lease
// and a commandTimeout) are stuck: every permit lost for good. They are killed, so that the run
// ends and is measured (its hosts with grants left then never recovered).
const STALL_MS = 10_000;
const STALL_POLL_MS = 100;

/** A chaos permit worker, as the test process drives it. */
export type ChaosPermitWorker = WorkerProcess<ChaosPermitEvent>;

/**
 * One chaos run of a semaphore: one worker per client host, one lock server (or a Sentinel
 * deployment), one store where the holders count themselves.
 */
export interface ChaosPermitOptions extends ChaosReadBackReach {
  readonly kind: PermitKind;
  readonly clients: readonly ChaosHost[];
  /** The semaphore's permits. */
  readonly permits: number;
  readonly tasks: number;
  readonly holdsPerTask: number;
  readonly workMs: number;
  /** The workers' watchdog lease (a leased kind's permits), and `commandTimeout`, in ms. */
  readonly watchdogTimeout: number;
  readonly commandTimeout: number;
  /** Unique to the run: the semaphore's name. */
  readonly label: string;
  /** Injected in order, spread over the run by holds released, its last stretch left free. */
  readonly faults: readonly ChaosFault[];
}

/** The semaphore as the lock server holds it once every worker ended (and every lease did). */
export interface PermitsAtEnd {
  /** Free permits: the count, and for a leased kind the permits whose lease ended. */
  readonly available: number;
  /** Permits still marked held (a Semaphore's holds hash, a leased kind's leases not ended). */
  readonly markedHeld: number;
}

/** What a chaos permit run saw. */
export interface ChaosPermitReport {
  readonly workers: readonly ChaosPermitWorker[];
  /** The host each worker ran on, by pid. */
  readonly hostOf: ReadonlyMap<number, string>;
  readonly faults: FaultLog;
  readonly atEnd: PermitsAtEnd;
  /** Whether the workers stalled after the faults (no permit granted for `STALL_MS`) and were killed. */
  readonly stalled: boolean;
}

/**
 * Runs chaos permit workers (`src/workers/chaosPermits.ts`) on the client hosts against the
 * semaphore's server through the test network, injects the faults, and reads the semaphore back
 * over the Unix socket of the master then once every worker ended.
 */
export async function runChaosPermits(options: ChaosPermitOptions): Promise<ChaosPermitReport> {
  const name = `{${options.label}}:${options.kind.id}`;
  const job: ChaosPermitJob = {
    spec: workerSpecOf(options),
    clientOptions: workerClientOptions(options, {
      watchdogTimeout: options.watchdogTimeout,
      commandTimeout: options.commandTimeout,
    }),
    kind: options.kind.id,
    name,
    permits: options.permits,
    store: workerStoreOf(options),
    holdersKey: `${name}:holders`,
    tasks: options.tasks,
    holdsPerTask: options.holdsPerTask,
    workMs: options.workMs,
  };
  const hostOf = new Map<number, string>();
  const workers = options.clients.map((host) => {
    const worker = startWorkerOn<ChaosPermitEvent>(host, SCRIPT, CHAOS_PERMIT_JOB_VARIABLE, job);
    hostOf.set(worker.pid, host.name);
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.next((event) => event.event === 'ready')));
  const log = new FaultLog();
  for (const worker of workers) worker.send('go');
  const progress = new Progress(workers, options.tasks * options.holdsPerTask);
  for (const [index, fault] of options.faults.entries()) {
    await progress.reached((index + 1) / (options.faults.length + 1.5), fault.type);
    await fault.inject({ log, nextGrant: () => nextGrant(workers) });
  }
  const stalled = await stopIfStalled(workers);
  await finishWorkers(workers);
  if (options.kind.leased) await sleep(options.watchdogTimeout + LEASE_END_SLACK_MS);
  const atEnd = await permitsAtEnd(await serverNowOf(options), name, options.kind.leased);
  return { workers, hostOf, faults: log, atEnd, stalled };
}

/** Waits until every worker ended; kills those left once no permit was granted for `STALL_MS`, and says whether it did. */
async function stopIfStalled(workers: readonly ChaosPermitWorker[]): Promise<boolean> {
  let lastGrant = performance.now();
  for (const worker of workers)
    worker.onEvent((event) => {
      if (event.event === 'acquired') lastGrant = performance.now();
    });
  const running = () => workers.filter((worker) => worker.exit === undefined);
  while (running().length > 0 && performance.now() - lastGrant < STALL_MS) await sleep(STALL_POLL_MS);
  const stuck = running();
  await Promise.all(stuck.map((worker) => worker.kill()));
  return stuck.length > 0;
}

/** Reads the semaphore's free and held permits over the (current master) server's Unix socket. */
async function permitsAtEnd(server: ChaosRedis, name: string, leased: boolean): Promise<PermitsAtEnd> {
  const count = Number(await server.command(['GET', name]));
  if (!leased) return { available: count, markedHeld: Number(await server.command(['HLEN', holdMarkersKey(name)])) };
  const [seconds, micros] = (await server.command(['TIME'])) as [string, string];
  const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
  const key = permitTimeoutsKey(name);
  const ended = Number(await server.command(['ZCOUNT', key, '-inf', nowMs]));
  const leasesLeft = Number(await server.command(['ZCOUNT', key, `(${nowMs}`, '+inf']));
  return { available: count + ended, markedHeld: leasesLeft };
}
