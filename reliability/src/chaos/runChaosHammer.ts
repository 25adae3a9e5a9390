import { fileURLToPath } from 'node:url';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import { monotonicMicros } from '../clock.js';
import { FaultLog, type FaultType } from '../faults/FaultLog.js';
import { HAMMER_JOB_VARIABLE, hammerLockName, type HammerEvent } from '../hammer/hammerEvents.js';
import type { HammerShape } from '../hammer/hammerShape.js';
import { findOverlaps } from '../hammer/overlaps.js';
import {
  countRetries,
  finishWorkers,
  hammerJob,
  holdsOf,
  Progress,
  readResourceState,
  type HammerReport,
  type HammerWorker,
} from '../hammer/runHammer.js';
import type { HammerKind } from '../kinds.js';
import type { ChaosHost } from './ChaosNetwork.js';
import type { WorkerEvent, WorkerProcess } from '../process/WorkerProcess.js';
import type { ChaosRedis } from './ChaosRedis.js';
import { standaloneSpec, workerClientOptions, workerSpecOf, workerStoreOf, type ChaosReach } from './chaosReach.js';
import { startWorkerOn } from './placeWorker.js';
import type { ProcessClock } from './ProcessClock.js';

const SCRIPT = fileURLToPath(new URL('../workers/hammer.ts', import.meta.url));

/** What a chaos fault can reach while the run goes on. */
export interface ChaosFaultContext {
  /** Where the fault records itself. */
  readonly log: FaultLog;
  /**
   * Resolves when the next hold is granted: a fault injected then lands during that hold's work
   * (a granted hold's event may reach the test process after its release was sent, a fresh one not).
   */
  readonly nextGrant: () => Promise<void>;
}

/** A fault of a chaos run, injected once when its turn comes; it records itself in the context's log. */
export interface ChaosFault {
  readonly type: FaultType;
  inject(context: ChaosFaultContext): Promise<void>;
}

/** A client host of a chaos run, and the clock its workers run on (the true one when absent). */
export interface ChaosClient {
  readonly host: ChaosHost;
  readonly clock?: ProcessClock | undefined;
}

/** One chaos run of the hammer: workers on client hosts, one lock server (or a Sentinel deployment), one store. */
export interface ChaosHammerOptions extends ChaosReach {
  /** Independent servers after `server`, for kinds that span several (RedLock's members). */
  readonly otherServers?: readonly ChaosRedis[];
  /** Worker `i` runs on client `i` modulo their number. */
  readonly clients: readonly ChaosClient[];
  readonly subjects: readonly LockSubject<HammerKind>[];
  readonly shape: HammerShape & { readonly commandTimeout: number };
  /** Unique to the run: the locks' names. */
  readonly label: string;
  /** Injected in order, spread over the run by holds completed, its last stretch left free. */
  readonly faults: readonly ChaosFault[];
}

/** What a chaos run saw: the hammer's report, and the workers' own events for the chaos checks. */
export interface ChaosHammerReport extends HammerReport {
  readonly workers: readonly HammerWorker[];
  /** The host each worker ran on, by pid. */
  readonly hostOf: ReadonlyMap<number, string>;
}

/**
 * Runs hammer workers (`src/workers/hammer.ts`) on the client hosts against the lock server through
 * the test network, injects the faults, and reads back every hold and the guarded resources.
 */
export async function runChaosHammer(options: ChaosHammerOptions): Promise<ChaosHammerReport> {
  const lockNames = new Map(options.subjects.map(({ kind }) => [kind.id, hammerLockName(options.label, kind.id)]));
  const plainJob = hammerJob(
    { ...options.shape, ...options, store: workerStoreOf(options) },
    workerSpecOf(options),
    (options.otherServers ?? []).map((server) => standaloneSpec(options.adapter, server)),
    lockNames,
  );
  const job = { ...plainJob, clientOptions: workerClientOptions(options, plainJob.clientOptions ?? {}) };
  const hostOf = new Map<number, string>();
  const workers = Array.from({ length: options.shape.processes }, (_, index) => {
    const client = options.clients[index % options.clients.length] ?? fail('a chaos run needs a client host');
    const worker = startWorkerOn<HammerEvent>(client.host, SCRIPT, HAMMER_JOB_VARIABLE, job, client.clock);
    hostOf.set(worker.pid, client.host.name);
    return worker;
  });
  await Promise.all(workers.map((worker) => worker.next((event) => event.event === 'ready')));
  const { subjects, shape } = options;
  const progress = new Progress(workers, subjects.length * shape.tasksPerSubject * shape.holdsPerTask);
  const log = new FaultLog();
  for (const worker of workers) worker.send('go');
  for (const [index, fault] of options.faults.entries()) {
    await progress.reached((index + 1) / (options.faults.length + 1.5), fault.type);
    await fault.inject({ log, nextGrant: () => nextGrant(workers) });
  }
  await finishWorkers(workers);
  const holds = workers.flatMap((worker) => holdsOf(worker, subjects, job));
  return {
    holds,
    overlaps: findOverlaps(holds, log.pauses, shape.watchdogTimeout * 1000),
    resources: await Promise.all(
      [...lockNames.values()].map((lock) => readResourceState((args) => options.store.command(args), lock)),
    ),
    retried: countRetries(workers),
    faults: log,
    workers,
    hostOf,
  };
}

/** Resolves at the next grant (an `acquired` event) of any worker; a worker that ends first (its holds done) is passed over. */
export function nextGrant<Event extends WorkerEvent & { readonly at?: number }>(
  workers: readonly WorkerProcess<Event>[],
): Promise<void> {
  const after = monotonicMicros();
  return Promise.any(
    workers.map((worker) => worker.next((event) => event.event === 'acquired' && (event.at ?? 0) > after)),
  ).then(() => undefined);
}

function fail(message: string): never {
  throw new Error(message);
}
