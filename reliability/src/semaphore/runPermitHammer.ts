import { fileURLToPath } from 'node:url';
import { backendProxies, type Backend } from '@deadbolt/conformance/connect';
import type { LockClient } from '@deadbolt/core';
import { holdMarkersKey } from '@deadbolt/core/kit';
import { sleep, waitFor, type Delay } from '@deadbolt/test-harness';
import { FaultLog } from '../faults/FaultLog.js';
import { DEFAULT_COMMAND_TIMEOUT_MS } from '../hammer/runHammer.js';
import { WorkerProcess } from '../process/WorkerProcess.js';
import { accountPermits, type PermitAccount } from './permitAccounting.js';
import { PERMIT_JOB_VARIABLE, type FixedLeasePlan, type PermitEvent, type PermitJob } from './permitEvents.js';
import type { PermitFault, PermitFaultContext, PermitWorker } from './permitFaults.js';
import { attemptsOf, grantsOf, type GrantLeases, type WorkerGrants } from './permitGrants.js';
import { findPermitExcesses, type PermitExcess, type PermitInterval } from './permitHistory.js';
import type { PermitKind, PermitSemaphore } from './permitKinds.js';
import { reviewLeases, type LeaseReview } from './permitLeases.js';

const SCRIPT = fileURLToPath(new URL('./permitWorker.ts', import.meta.url));
// How often the test process reads the available permits while the workers run.
const SAMPLE_INTERVAL_MS = 5;
// A fault waits at most this long for its share of the run to be done.
const PROGRESS_TIMEOUT_MS = 30_000;
// The workers left must all have ended this long after the last fault: a run takes seconds.
const FINISH_TIMEOUT_MS = 40_000;
// A leased kind's workers renew permits held without a fixed lease this often (a third of it):
// short, so that a killed holder's permits come back within the run.
const WATCHDOG_MS = 1_000;
// Every third grant takes a fixed lease this short, and every other one of those outlives it.
const FIXED_LEASE: FixedLeasePlan = { every: 3, leaseMs: 60 };
// After the workers end, a leased kind's count is read once the last lease surely ended: a
// watchdog lease from the last renewal (or request), and this much more (a fixed lease is
// shorter; a timer may be late).
const LEASE_END_SLACK_MS = 500;

/** How big a permit-hammer run is. */
export interface PermitHammerShape {
  /** The semaphore's permits, N. */
  readonly permits: number;
  /** Worker processes, each with `tasks` tasks. */
  readonly processes: number;
  readonly tasks: number;
  /** Grants each task takes and gives back. */
  readonly holdsPerTask: number;
  /** Each acquisition asks for 1 to this many permits. */
  readonly maxPermits: number;
  /** How long each grant is held, in ms. */
  readonly workMs: number;
  /**
   * The workers' `commandTimeout`, in ms (the client's default, 10 s, when absent): short where a
   * fault must outlast a request's deadline and records (3 × it).
   */
  readonly commandTimeout?: number;
}

/** One permit-hammer run. */
export interface PermitHammerOptions extends PermitHammerShape {
  readonly backend: Backend;
  readonly kind: PermitKind;
  /** A client of the test process's own, never faulted: it sets the permits and reads them. */
  readonly observer: LockClient;
  /** Unique to this run; the semaphore's name is `{<label>}:semaphore`. */
  readonly label: string;
  /** Injected in order, spread over the run by the grants given back. */
  readonly faults: readonly PermitFault[];
  /** Workers connect through the backend's fault proxies, with this latency for the whole run. */
  readonly proxied?: { readonly latency: Delay };
}

/** Everything a permit-hammer run saw. */
export interface PermitHammerReport {
  readonly grants: readonly PermitInterval[];
  /** Grants that took the permits held at once above N: must be none. */
  readonly excesses: readonly PermitExcess[];
  /** The end count against what the workers' events account for. */
  readonly account: PermitAccount;
  /** Permits the operator gave back for killed holders: what each held when it died. */
  readonly restored: number;
  /** Grants given back with a release that came back. */
  readonly completed: number;
  /** Requests whose outcome the workers could not know (Redis unreachable, or cut by a kill). */
  readonly unknown: number;
  /** `Semaphore` releases that found their permits' mark gone (LockLostError): an earlier try of theirs may have given them back. */
  readonly releasesNotHeld: number;
  /** A leased kind's leases: see {@link LeaseReport}. */
  readonly leases?: LeaseReport;
  /** What kept each worker that lingered after closing its client alive (see `PermitEvent`). */
  readonly lingered: readonly (readonly string[])[];
  /**
   * A `Semaphore`'s ledger at the end: the permits it was given (N and the operator's
   * give-backs), those available, and those its holds hash (`deadbolt_holds:{name}`) marks as
   * held by some acquisition (the killed holders', and those of acquisitions whose outcome was
   * unknown and whose give-back could not reach Redis). Available plus marked must be exactly
   * the permits given: none lost, none invented, whatever copies arrived late.
   */
  readonly ledger?: { readonly given: number; readonly available: number; readonly marked: number };
  /** The fewest and most permits the test process read as available while the workers ran. */
  readonly sampled: { readonly reads: number; readonly fewest: number; readonly most: number };
  readonly faults: FaultLog;
}

/** What a leased kind's run showed of its leases, beside the history and the end count. */
export interface LeaseReport extends LeaseReview {
  /** Permits the killed holders held, which came back by themselves when their lease ended. */
  readonly reclaimed: number;
  /** Members left in the held permits' sorted set once every lease ended and the count was read: must be 0. */
  readonly heldLeft: number;
}

/**
 * Sets a semaphore's permits to N, runs worker processes that take and give back permits while
 * `faults` are injected, then rebuilds every grant from their events and reads the end count.
 */
export async function runPermitHammer(options: PermitHammerOptions): Promise<PermitHammerReport> {
  const name = `{${options.label}}:semaphore`;
  const observed = options.kind.create(options.observer, name);
  if (!(await observed.trySetPermits(options.permits))) throw new Error(`semaphore ${name} existed already`);
  const proxied = options.proxied ? await backendProxies(options.backend) : undefined;
  proxied?.proxies.setLatency(options.proxied?.latency ?? 0);
  const job: PermitJob = {
    spec: proxied?.spec ?? options.backend.spec,
    kind: options.kind.id,
    name,
    tasks: options.tasks,
    holdsPerTask: options.holdsPerTask,
    maxPermits: options.maxPermits,
    workMs: options.workMs,
    ...clientOptionsOf(options),
    ...(options.kind.leased ? { fixedLease: FIXED_LEASE } : {}),
  };
  const workers = Array.from({ length: options.processes }, () =>
    WorkerProcess.start<PermitEvent>(SCRIPT, PERMIT_JOB_VARIABLE, job),
  );
  await Promise.all(workers.map((worker) => worker.next((event) => event.event === 'ready')));
  const unfinished: Promise<void>[] = [];
  const context: PermitFaultContext = {
    backend: options.backend,
    log: new FaultLog(),
    name,
    workers,
    proxies: proxied?.proxies,
    operator: observed,
    restored: [],
    leased: options.kind.leased,
    kills: [],
    commandTimeout: options.commandTimeout ?? DEFAULT_COMMAND_TIMEOUT_MS,
    finishLater: (task) => void unfinished.push(task),
  };
  const sampler = new PermitSampler(observed);
  for (const worker of workers) worker.send('go');
  try {
    await injectFaults(context, options.faults, options.tasks * options.holdsPerTask);
    // Settled, not short-circuited: a fault that failed fails the run once every other one ended.
    for (const result of await Promise.allSettled(unfinished)) if (result.status === 'rejected') throw result.reason;
    await finishedWithin(
      workers.filter((worker) => worker.exit?.signal !== 'SIGKILL'),
      FINISH_TIMEOUT_MS,
    );
    // Nobody gives a killed holder's leased permits back: they come back when their lease ends.
    if (options.kind.leased) await sleep(WATCHDOG_MS + LEASE_END_SLACK_MS);
  } finally {
    proxied?.proxies.setLatency(0);
    await sampler.stop();
  }
  const available = await observed.availablePermits();
  if (!options.kind.leased)
    return report(options.permits, context, available, sampler, undefined, await heldMarks(options.backend, name));
  const timeouts = options.kind.createExpirable(options.observer, name).timeoutsKey;
  const heldLeft = Number(await options.backend.command(['ZCARD', timeouts], timeouts));
  return report(options.permits, context, available, sampler, heldLeft);
}

// The permits a Semaphore's holds hash marks as held, by every acquisition still holding some.
async function heldMarks(backend: Backend, name: string): Promise<number> {
  const key = holdMarkersKey(name);
  const values = (await backend.command(['HVALS', key], key)) as unknown[];
  return values.reduce<number>((sum, value) => sum + Number(value), 0);
}

// The workers' client options: a leased kind's short watchdog lease, and the commandTimeout asked for.
function clientOptionsOf(options: PermitHammerOptions): Pick<PermitJob, 'clientOptions'> {
  const clientOptions = {
    ...(options.kind.leased ? { watchdogTimeout: WATCHDOG_MS } : {}),
    ...(options.commandTimeout === undefined ? {} : { commandTimeout: options.commandTimeout }),
  };
  return Object.keys(clientOptions).length === 0 ? {} : { clientOptions };
}

/** Injects each fault once its share of the grants is given back, leaving the run's last stretch free. */
async function injectFaults(
  context: PermitFaultContext,
  faults: readonly PermitFault[],
  perWorker: number,
): Promise<void> {
  const given = (worker: PermitWorker) => worker.events.filter((event) => event.event === 'released').length;
  for (const [index, fault] of faults.entries()) {
    const share = (index + 1) / (faults.length + 1.5);
    // A killed worker's grants count as far as it got.
    const achievable = () =>
      context.workers.reduce((sum, worker) => sum + (worker.exit?.signal === 'SIGKILL' ? given(worker) : perWorker), 0);
    await waitFor(
      () =>
        context.workers.reduce((sum, worker) => sum + given(worker), 0) >= share * achievable() ||
        context.workers.every((worker) => worker.exit !== undefined),
      {
        timeoutMs: PROGRESS_TIMEOUT_MS,
        intervalMs: SAMPLE_INTERVAL_MS,
        description: `${Math.round(share * 100)}% of the grants given back, for the fault "${fault.type}"`,
      },
    ).catch(async (error: unknown) => {
      // Say where it stuck: what Redis holds, and what the workers last did.
      const available = await context.operator.availablePermits().catch((cause: unknown) => String(cause));
      const holds = holdMarkersKey(context.name);
      const marked = await context.backend.command(['HGETALL', holds], holds).catch((cause: unknown) => String(cause));
      throw new Error(
        `${error instanceof Error ? error.message : String(error)}; ${String(available)} available, marked held ${JSON.stringify(marked)}\n${context.workers.map(describeWorker).join('\n')}`,
        { cause: error },
      );
    });
    if ((await fault.inject(context)) !== false) context.log.record(fault.type);
  }
}

/** Resolves once every worker ended well; rejects with where each one is when that takes `timeoutMs`. */
async function finishedWithin(workers: readonly PermitWorker[], timeoutMs: number): Promise<void> {
  const finished = Promise.all(workers.map((worker) => worker.finished())).catch((error: unknown) => {
    // Say why: a worker that failed printed it (see PermitEvent 'failed').
    const failed = workers.filter(
      (worker) => worker.exit !== undefined && worker.exit.code !== 0 && worker.exit.signal !== 'SIGKILL',
    );
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n${failed.map(describeWorker).join('\n')}`,
      { cause: error },
    );
  });
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(new Error(`workers still running after ${timeoutMs} ms:\n${workers.map(describeWorker).join('\n')}`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([finished, late]);
  } finally {
    clearTimeout(timer);
  }
}

// A worker's state for a failure message: how it ended, its last events, its typed errors, its stderr.
function describeWorker(worker: PermitWorker): string {
  const missed = worker.events.filter(
    (event) => event.event === 'missed' || (event.event === 'released' && event.unknown),
  );
  const state = worker.exit === undefined ? 'running' : String(worker.exit.signal ?? worker.exit.code);
  return `worker ${worker.pid} (${state}): last ${JSON.stringify(worker.events.slice(-3))}, failed requests ${JSON.stringify(missed)}${worker.stderr === '' ? '' : `, stderr ${worker.stderr.slice(-2_000)}`}`;
}

function report(
  permits: number,
  context: PermitFaultContext,
  available: number,
  sampler: PermitSampler,
  heldLeft?: number,
  marked?: number,
): PermitHammerReport {
  const each = context.workers.map((worker) => workerGrants(context, worker));
  const grants = each.flatMap((worker) => worker.grants);
  const restored = context.restored.reduce((sum, restore) => sum + restore.permits, 0);
  return {
    ...(marked === undefined ? {} : { ledger: { given: permits + restored, available, marked } }),
    grants,
    excesses: findPermitExcesses(grants, [{ at: -Infinity, limit: permits }]),
    // The operator's additions are permits the semaphore was given too.
    account: accountPermits(
      permits + restored,
      available,
      each.flatMap((worker) => worker.leaks),
    ),
    restored,
    completed: each.reduce((sum, worker) => sum + worker.completed, 0),
    unknown: each.reduce((sum, worker) => sum + worker.unknown, 0),
    releasesNotHeld: context.workers.reduce(
      (sum, worker) =>
        sum + worker.events.filter((event) => event.event === 'released' && event.notHeld === true).length,
      0,
    ),
    ...(heldLeft === undefined ? {} : { leases: leaseReport(context, heldLeft) }),
    lingered: context.workers.flatMap((worker) =>
      worker.events.flatMap((event) => (event.event === 'lingered' ? [event.resources] : [])),
    ),
    sampled: sampler.seen,
    faults: context.log,
  };
}

// A worker's grants: a killed one's end when its permits were given back for it, or, with leases, at its kill.
function workerGrants(context: PermitFaultContext, worker: PermitWorker): WorkerGrants {
  const leases: GrantLeases | undefined = context.leased ? { watchdogMs: WATCHDOG_MS } : undefined;
  if (worker.exit?.signal !== 'SIGKILL') return grantsOf(worker.events, undefined, leases);
  const end = (context.leased ? context.kills : context.restored).find((each) => each.pid === worker.pid) ?? {
    at: Infinity,
  };
  return grantsOf(worker.events, end, leases);
}

// Every worker's lease review, added up, with what the killed holders held and what is left held.
function leaseReport(context: PermitFaultContext, heldLeft: number): LeaseReport {
  const reviews = context.workers.map((worker) =>
    reviewLeases(attemptsOf(worker.events), context.kills.find((kill) => kill.pid === worker.pid)?.at),
  );
  return {
    outlived: reviews.reduce((sum, review) => sum + review.outlived, 0),
    watchdogLapses: reviews.reduce((sum, review) => sum + review.watchdogLapses, 0),
    breaches: reviews.flatMap((review) => review.breaches),
    reclaimed: context.kills.reduce((sum, kill) => sum + kill.permits, 0),
    heldLeft,
  };
}

/** Reads the available permits over and over until stopped, keeping the fewest and the most. */
class PermitSampler {
  seen = { reads: 0, fewest: Infinity, most: -Infinity };
  #running = true;
  #failure: { readonly error: unknown } | undefined;
  readonly #loop: Promise<void>;

  constructor(semaphore: PermitSemaphore) {
    this.#loop = this.#sample(semaphore).catch((error: unknown) => {
      this.#failure = { error };
    });
  }

  /** Stops reading; rejects with the error a read failed with, if one did. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#loop;
    if (this.#failure !== undefined) throw this.#failure.error;
  }

  async #sample(semaphore: PermitSemaphore): Promise<void> {
    while (this.#running) {
      const available = await semaphore.availablePermits();
      this.seen = {
        reads: this.seen.reads + 1,
        fewest: Math.min(this.seen.fewest, available),
        most: Math.max(this.seen.most, available),
      };
      await sleep(SAMPLE_INTERVAL_MS);
    }
  }
}
