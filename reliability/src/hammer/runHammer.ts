import { fileURLToPath } from 'node:url';
import { backendProxies, type Backend, type ConnectionSpec } from '@deadbolt/conformance/connect';
import type { Delay, ProxyGroup, RedisAddress } from '@deadbolt/test-harness';
import { sendCommand } from '@deadbolt/test-harness';
import { FaultLog, type FaultType } from '../faults/FaultLog.js';
import type { LockSubject } from '@deadbolt/conformance/kinds';
import type { HammerKind } from '../kinds.js';
import { WorkerProcess, type WorkerEvent } from '../process/WorkerProcess.js';
import { resourceKeys, type StoreAddress } from '../store/ResourceStore.js';
import {
  HAMMER_JOB_VARIABLE,
  hammerLockName,
  ownerOfHold,
  type HammerEvent,
  type HammerJob,
  type ReleaseOutcome,
} from './hammerEvents.js';
import { findOverlaps, type HoldInterval, type Overlap } from './overlaps.js';

const SCRIPT = fileURLToPath(new URL('../workers/hammer.ts', import.meta.url));
/** A `LockClient`'s `commandTimeout` when none is given. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 10_000;

/** A hammer worker process, as faults see it. */
export type HammerWorker = WorkerProcess<HammerEvent>;

/** What a fault can reach while the hammer runs. */
export interface HammerFaultContext {
  readonly backend: Backend;
  /** The independent deployments after `backend`, for kinds that span several (RedLock). */
  readonly otherBackends: readonly Backend[];
  /** Where a freeze records its interval. */
  readonly log: FaultLog;
  /** The lock names in use, by kind id. */
  readonly lockNames: ReadonlyMap<string, string>;
  /** A running worker, one in the middle of a hold when there is one. */
  readonly holdingWorker: () => HammerWorker;
  /** The fault proxies the workers connect through, in a run with {@link HammerOptions.proxied}. */
  readonly proxies: ProxyGroup | undefined;
  /** The workers' `commandTimeout`: how long a request's deadline and records last (late copies). */
  readonly commandTimeout: number;
  /**
   * Finishes a fault in the background while the run goes on (a late delivery, seconds after its
   * copy was held): the run awaits it before its figures are read.
   */
  readonly finishLater: (task: Promise<void>) => void;
}

/** A fault the hammer injects once, when its turn comes; the hammer counts it once injected. */
export interface HammerFault {
  readonly type: FaultType;
  inject(context: HammerFaultContext): Promise<void>;
}

/** One hammer run. */
export interface HammerOptions {
  readonly backend: Backend;
  /** The independent deployments after `backend`, for kinds that span several (RedLock). */
  readonly otherBackends: readonly Backend[];
  /** The server of the guarded resources; no fault touches it. */
  readonly store: RedisAddress;
  readonly subjects: readonly LockSubject<HammerKind>[];
  /** Worker processes, each contending for every subject. */
  readonly processes: number;
  readonly tasksPerSubject: number;
  readonly holdsPerTask: number;
  /** How long each hold works between its read and its write, in ms. */
  readonly workMs: number;
  /** The workers' watchdog lease, in ms; short, so that a killed holder's lock frees soon. */
  readonly watchdogTimeout: number;
  /**
   * The workers' `commandTimeout`, in ms (the client's default, 10 s, when absent). Short where a
   * fault must outlast a request's deadline and records (3 × it): a partition past them.
   */
  readonly commandTimeout?: number;
  /** A label unique to this run, for lock names; one hash tag, so a cluster keeps them in one slot. */
  readonly label: string;
  /** Injected in order, spread over the run by the number of holds completed. */
  readonly faults: readonly HammerFault[];
  /**
   * Workers connect to `backend` through its fault proxies, which delay every chunk by `latency`
   * for the whole run; the faults find the proxies in their context.
   */
  readonly proxied?: { readonly latency: Delay };
}

/**
 * One hold of the run, from its worker's events: it lasts from its grant to the end of its work,
 * or, when its worker was killed at work, to the worker's end.
 */
export interface HammerHold extends HoldInterval {
  readonly id: string;
  readonly subject: string;
  /** How the release went; `killed` when the worker was killed before it knew. */
  readonly outcome: ReleaseOutcome | 'killed';
  readonly wrote: boolean;
  readonly rejected: boolean;
  readonly lost: boolean;
}

/** What a guarded resource held at the end of the run. */
export interface ResourceState {
  readonly lock: string;
  readonly counter: number;
  /** Ids of the holds whose increment landed. */
  readonly landed: ReadonlySet<string>;
}

/** Everything a hammer run saw. */
export interface HammerReport {
  readonly holds: readonly HammerHold[];
  readonly overlaps: readonly Overlap<HammerHold>[];
  readonly resources: readonly ResourceState[];
  /** Typed errors the workers retried, by stage and error name. */
  readonly retried: Readonly<Record<string, number>>;
  readonly faults: FaultLog;
}

/**
 * Runs worker processes that hammer one lock of each subject's kind while `faults` are injected,
 * then reads back every hold and the guarded resources.
 */
export async function runHammer(options: HammerOptions): Promise<HammerReport> {
  const lockNames = new Map(options.subjects.map(({ kind }) => [kind.id, hammerLockName(options.label, kind.id)]));
  const proxied = options.proxied ? await backendProxies(options.backend) : undefined;
  const proxies = proxied?.proxies;
  proxies?.setLatency(options.proxied?.latency ?? 0);
  const otherSpecs = options.otherBackends.map((backend) => backend.spec);
  const job = hammerJob(options, proxied?.spec ?? options.backend.spec, otherSpecs, lockNames);
  const workers = Array.from({ length: options.processes }, () =>
    WorkerProcess.start<HammerEvent>(SCRIPT, HAMMER_JOB_VARIABLE, job),
  );
  await Promise.all(workers.map((worker) => worker.next((event) => event.event === 'ready')));
  const progress = new Progress(workers, options.subjects.length * options.tasksPerSubject * options.holdsPerTask);
  const log = new FaultLog();
  const unfinished: Promise<void>[] = [];
  const context: HammerFaultContext = {
    backend: options.backend,
    otherBackends: options.otherBackends,
    log,
    lockNames,
    holdingWorker: () => progress.holdingWorker(),
    proxies,
    commandTimeout: options.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS,
    finishLater: (task) => void unfinished.push(task),
  };
  for (const worker of workers) worker.send('go');

  const faultCount = options.faults.length;
  for (const [index, fault] of options.faults.entries()) {
    // Spread over the run, leaving its last stretch free of faults.
    await progress.reached((index + 1) / (faultCount + 1.5), fault.type);
    await fault.inject(context);
    log.record(fault.type);
  }
  // Settled, not short-circuited: a fault that failed fails the run once every other one ended.
  const finished = await Promise.allSettled(unfinished);
  for (const result of finished) if (result.status === 'rejected') throw result.reason;
  await finishWorkers(workers);
  proxies?.setLatency(0);

  const holds = workers.flatMap((worker) => holdsOf(worker, options.subjects, job));
  return {
    holds,
    overlaps: findOverlaps(holds, log.pauses, options.watchdogTimeout * 1000),
    resources: await Promise.all([...lockNames.values()].map((lock) => resourceState(options.store, lock))),
    retried: countRetries(workers),
    faults: log,
  };
}

/** Counts completed holds and tells when a share of the run is done. */
export class Progress<Event extends WorkerEvent = HammerEvent> {
  readonly #workers: readonly WorkerProcess<Event>[];
  readonly #perWorker: number;
  readonly #open = new Map<WorkerProcess<Event>, number>();
  readonly #done = new Map<WorkerProcess<Event>, number>();
  readonly #waiters = new Set<() => void>();

  constructor(workers: readonly WorkerProcess<Event>[], perWorker: number) {
    this.#workers = workers;
    this.#perWorker = perWorker;
    for (const worker of workers) {
      worker.onEvent((event) => {
        if (event.event === 'acquired') this.#open.set(worker, (this.#open.get(worker) ?? 0) + 1);
        if (event.event === 'released') {
          this.#open.set(worker, (this.#open.get(worker) ?? 1) - 1);
          this.#done.set(worker, (this.#done.get(worker) ?? 0) + 1);
        }
        for (const wake of [...this.#waiters]) wake();
      });
      void worker
        .finished()
        .catch(() => undefined)
        .then(() => this.#waiters.forEach((wake) => wake()));
    }
  }

  /**
   * Resolves once `share` of the holds the run can still complete are done (a killed worker's
   * remaining holds no longer count); rejects if every worker ended before that.
   */
  reached(share: number, awaiting: string): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = () => {
        if (this.#completed() >= share * this.#achievable()) {
          this.#waiters.delete(check);
          resolve();
        } else if (this.#workers.every((worker) => worker.exit !== undefined)) {
          this.#waiters.delete(check);
          reject(
            new Error(
              `every hammer worker ended before the fault "${awaiting}" was due:\n${this.#workers.map(describeEnd).join('\n')}`,
            ),
          );
        }
      };
      this.#waiters.add(check);
      check();
    });
  }

  /** A running worker with a hold open, or any running worker. */
  holdingWorker(): WorkerProcess<Event> {
    const running = this.#workers.filter((worker) => worker.exit === undefined);
    const worker = running.find((candidate) => (this.#open.get(candidate) ?? 0) > 0) ?? running[0];
    if (worker === undefined)
      throw new Error(`no hammer worker is running:\n${this.#workers.map(describeEnd).join('\n')}`);
    return worker;
  }

  #completed(): number {
    return [...this.#done.values()].reduce((sum, count) => sum + count, 0);
  }

  #achievable(): number {
    return this.#workers.reduce(
      (sum, worker) => sum + (worker.exit?.signal === 'SIGKILL' ? (this.#done.get(worker) ?? 0) : this.#perWorker),
      0,
    );
  }
}

/** The holds of one worker's run, from its events. */
export function holdsOf(
  worker: HammerWorker,
  subjects: readonly LockSubject<HammerKind>[],
  job: HammerJob,
): HammerHold[] {
  const acquired = new Map<string, Extract<HammerEvent, { event: 'acquired' }>>();
  const worked = new Map<string, Extract<HammerEvent, { event: 'worked' }>>();
  const released = new Map<string, ReleaseOutcome>();
  for (const event of worker.events) {
    if (event.event === 'acquired') acquired.set(event.hold, event);
    if (event.event === 'worked') worked.set(event.hold, event);
    if (event.event === 'released') released.set(event.hold, event.release);
  }
  // A hold still at work when its worker was killed lasted until the worker was gone.
  const killedAt = worker.exit?.at ?? fail(`worker ${worker.pid} is still running`);
  return [...acquired.values()].map(({ subject, hold, requested, at }) => {
    const { role, label } = subjects[subject] ?? fail(`unknown subject ${subject}`);
    const work = worked.get(hold);
    return {
      id: hold,
      subject: label,
      lock: job.subjects[subject]?.lockName ?? '',
      owner: ownerOfHold(hold),
      pid: worker.pid,
      exclusive: role.exclusive,
      requested,
      start: at,
      end: work?.end ?? killedAt,
      wrote: work?.wrote ?? false,
      rejected: work?.rejected ?? false,
      lost: work?.lost ?? false,
      outcome: released.get(hold) ?? 'killed',
    };
  });
}

/** What the store holds for the resource `lock` guards: its counter and the holds whose increment landed. */
export function resourceState(store: RedisAddress, lock: string): Promise<ResourceState> {
  return readResourceState((args) => sendCommand(store, args), lock);
}

/** {@link resourceState}, read with `command` (a store reached some other way). */
export async function readResourceState(
  command: (args: string[]) => Promise<unknown>,
  lock: string,
): Promise<ResourceState> {
  const keys = resourceKeys(lock);
  const [counter, landed] = await Promise.all([command(['GET', keys.counter]), command(['SMEMBERS', keys.writes])]);
  return { lock, counter: Number(counter ?? 0), landed: new Set(Array.isArray(landed) ? landed.map(String) : []) };
}

/** Typed errors the workers retried, by stage and error name. */
export function countRetries(workers: readonly HammerWorker[]): Record<string, number> {
  const retried: Record<string, number> = {};
  for (const event of workers.flatMap((worker) => worker.events)) {
    if (event.event === 'retried')
      retried[`${event.stage}: ${event.error}`] = (retried[`${event.stage}: ${event.error}`] ?? 0) + 1;
  }
  return retried;
}

/** How a worker ended, with what it said of a failure. */
function describeEnd<Event extends WorkerEvent>(worker: WorkerProcess<Event>): string {
  const failed = worker.events.find((event) => event.event === 'failed');
  const message = failed !== undefined && 'message' in failed ? ` (${String(failed.message)})` : '';
  return `worker ${worker.pid}: ${worker.exit?.signal ?? worker.exit?.code ?? 'running'}${message}`;
}

/**
 * The job every worker of a run gets: `spec` is where its lock client connects, `otherSpecs` the
 * independent deployments after it (RedLock's members).
 */
export function hammerJob(
  options: Pick<
    HammerOptions,
    'watchdogTimeout' | 'commandTimeout' | 'subjects' | 'tasksPerSubject' | 'holdsPerTask' | 'workMs'
  > & { readonly store: StoreAddress },
  spec: ConnectionSpec,
  otherSpecs: readonly ConnectionSpec[],
  lockNames: ReadonlyMap<string, string>,
): HammerJob {
  return {
    spec: spec,
    otherSpecs,
    clientOptions: {
      watchdogTimeout: options.watchdogTimeout,
      ...(options.commandTimeout === undefined ? {} : { commandTimeout: options.commandTimeout }),
    },
    store:
      'path' in options.store ? { path: options.store.path } : { host: options.store.host, port: options.store.port },
    subjects: options.subjects.map(({ kind, role }) => ({
      kind: kind.id,
      role: role.name,
      lockName: lockNames.get(kind.id) ?? '',
      tasks: options.tasksPerSubject,
      iterations: options.holdsPerTask,
    })),
    workMs: options.workMs,
  };
}

/** Waits until every worker not killed ended, and fails with why one did not end well. */
export async function finishWorkers<Event extends WorkerEvent>(
  workers: readonly WorkerProcess<Event>[],
): Promise<void> {
  const killed = new Set(workers.filter((worker) => worker.exit?.signal === 'SIGKILL'));
  // A worker that failed says why in its events, not on stderr: the error carries it.
  await Promise.all(
    workers
      .filter((worker) => !killed.has(worker))
      .map((worker) =>
        worker.finished().catch((error: unknown) => {
          throw new Error(describeEnd(worker), { cause: error });
        }),
      ),
  );
}

function fail(message: string): never {
  throw new Error(message);
}
