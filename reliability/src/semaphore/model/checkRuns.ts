import { backendProxies, connectExecutor, type Backend, type ConnectedExecutor } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { LockClient } from '@deadbolt/core';
import fc from 'fast-check';
import { addInjections, type FaultyClient, type InjectionCounts } from '../../faults/modelFaults.js';

/** What a model check of one semaphore kind on one backend did. */
export interface SemaphoreModelReport {
  readonly kind: string;
  readonly backend: string;
  readonly seed: number;
  readonly runs: number;
  readonly steps: number;
  /** Grants beyond the limit found in the hold-interval histories. */
  readonly excesses: number;
  /** In runs with a faulty client: the faults injected and the late copies they made. */
  readonly injected?: InjectionCounts;
  /** Model-specific counts a run reports (a latch seen open early, permits kept by lost acquisitions). */
  readonly tallies: Readonly<Record<string, number>>;
  /** The first failure, with the environment that replays it. */
  readonly failure?: { readonly message: string; readonly replay: string };
}

/** What one run of a model came to: the steps it took, the history's excesses, its first failure. */
export interface ModelRunResult {
  readonly steps: number;
  readonly excesses: number;
  readonly injected?: InjectionCounts;
  readonly tallies: Readonly<Record<string, number>>;
  readonly failure?: string;
}

/**
 * A model run whose last client reaches Redis through the backend's fault proxies, with this
 * `commandTimeout`, so that its steps can have late copies and cuts injected.
 */
export interface FaultyRuns {
  readonly commandTimeout: number;
}

/** Clients per model run, each on its own driver connection. */
export const MODEL_CLIENTS = 2;
let runCounter = 0;

/**
 * Runs `budget.runs` random sequences of `step` (for {@link MODEL_CLIENTS} clients) with
 * fast-check, each by the runner `runnerFor` makes for a fresh semaphore name, on fresh clients
 * (see {@link onFreshClients}), and reports them; a failure carries the seed and path that replay it (`FC_SEED=… FC_PATH=… MODEL_KINDS=…
 * DEADBOLT_BACKENDS=…`).
 */
export async function checkRuns<Step>(
  kindId: string,
  backend: Backend,
  budget: ModelBudget,
  step: fc.Arbitrary<Step>,
  runnerFor: (name: string, sequence: readonly Step[]) => ModelRunner,
  faulty?: FaultyRuns,
): Promise<SemaphoreModelReport> {
  const label = faulty === undefined ? kindId : `${kindId}:faults`;
  const runOnce = (sequence: readonly Step[]) =>
    onFreshClients(
      backend,
      MODEL_CLIENTS,
      runnerFor(`model:${label}:${process.pid}:${++runCounter}`, sequence),
      faulty,
    );
  let runs = 0;
  let steps = 0;
  let excesses = 0;
  const injected: InjectionCounts = { late: 0, cut: 0, delivered: 0, refused: 0, resent: 0 };
  const tallies: Record<string, number> = {};
  const property = fc.asyncProperty(
    fc.array(step, { minLength: budget.minSteps, maxLength: budget.maxSteps }),
    async (sequence) => {
      const result = await runOnce(sequence);
      runs++;
      steps += result.steps;
      excesses += result.excesses;
      if (result.injected !== undefined) addInjections(injected, result.injected);
      for (const [name, count] of Object.entries(result.tallies)) tallies[name] = (tallies[name] ?? 0) + count;
      if (result.failure !== undefined) throw new Error(result.failure);
    },
  );
  const details = await fc.check(property, {
    numRuns: budget.runs,
    endOnFailure: budget.shrink !== true,
    ...(budget.seed === undefined ? {} : { seed: budget.seed }),
    ...(budget.path === undefined ? {} : { path: budget.path }),
  });
  const report = {
    kind: kindId,
    backend: backend.name,
    seed: details.seed,
    runs,
    steps,
    excesses,
    tallies,
    ...(faulty === undefined ? {} : { injected }),
  };
  if (!details.failed) return report;
  const error = details.errorInstance;
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''} MODEL_KINDS=${kindId}${faulty === undefined ? '' : ' MODEL_FAULTS=1'} DEADBOLT_BACKENDS=${backend.name}`;
  return { ...report, failure: { message: error instanceof Error ? error.message : String(error), replay } };
}

/** A report as one line, and its failure in full with the replay line. */
export function formatSemaphoreReport(report: SemaphoreModelReport): string {
  const { injected } = report;
  const faults =
    injected === undefined
      ? ''
      : ` with ${injected.late} late copies (${injected.delivered} delivered, ${injected.refused} refused as late) and ${injected.cut} cuts partitioned past their records (${injected.resent} re-sent after)`;
  const tallies = Object.entries(report.tallies)
    .map(([name, count]) => `, ${count} ${name}`)
    .join('');
  const head = `${report.kind} on ${report.backend}: ${report.runs} runs, ${report.steps} steps${faults}${tallies}, seed ${report.seed}`;
  return report.failure === undefined
    ? head
    : `${head}\nFAILED — replay with ${report.failure.replay}\n${report.failure.message}`;
}

/** A model run as {@link onFreshClients} drives it. */
export interface ModelRunner {
  readonly trace: readonly string[];
  readonly excesses: number;
  /** The faults it injected (a run with a faulty client). */
  readonly injected?: InjectionCounts | undefined;
  /** Counts of its own to report, by name. */
  readonly tallies?: Readonly<Record<string, number>>;
  /**
   * Runs the steps on the clients; the first broken invariant, if any. With `faulty`, the last
   * client reaches Redis through those proxies.
   */
  run(clients: readonly LockClient[], faulty?: FaultyClient): Promise<string | undefined>;
  /** Gives back whatever the run still holds. */
  releaseAll(): Promise<void>;
}

/**
 * Runs `runner` on `count` fresh lock clients, each on its own driver connection; whatever
 * happens, gives back what it holds and closes them. With `faulty`, the last one connects through
 * the backend's fault proxies, with that `commandTimeout`.
 */
export async function onFreshClients(
  backend: Backend,
  count: number,
  runner: ModelRunner,
  faulty?: FaultyRuns,
): Promise<ModelRunResult> {
  const connections: ConnectedExecutor[] = [];
  const clients: LockClient[] = [];
  try {
    let faultyClient: FaultyClient | undefined;
    for (let i = 0; i < count; i++) {
      const proxied = faulty !== undefined && i === count - 1;
      if (!proxied) {
        const connected = await backend.connect();
        connections.push(connected);
        clients.push(new LockClient(connected.executor));
        continue;
      }
      // Not through the backend, which would wait for its close at the end: a node-redis Cluster
      // client whose connection a proxy cut sometimes never finishes closing (its close() never
      // settles); this one is closed within CLEANUP_TIMEOUT_MS or left behind.
      const { proxies, spec } = await backendProxies(backend);
      const connected = await connectExecutor(spec);
      connections.push(connected);
      clients.push(new LockClient(connected.executor, { commandTimeout: faulty.commandTimeout }));
      faultyClient = { proxies, commandTimeout: faulty.commandTimeout, resends: backend.spec.adapter === 'ioredis' };
    }
    const failure = await withinTime(
      runner.run(clients, faultyClient),
      RUN_TIMEOUT_MS,
      () => `[hang] the run did not end within ${RUN_TIMEOUT_MS} ms\ntrace:\n${runner.trace.join('\n')}`,
    );
    return {
      steps: runner.trace.length,
      excesses: runner.excesses,
      tallies: runner.tallies ?? {},
      ...(runner.injected === undefined ? {} : { injected: runner.injected }),
      ...(failure === undefined ? {} : { failure }),
    };
  } finally {
    // Bounded: a run that hung may have left a call that never settles.
    await withinTime(runner.releaseAll(), CLEANUP_TIMEOUT_MS, () => undefined);
    await withinTime(Promise.allSettled(clients.map((client) => client.close())), CLEANUP_TIMEOUT_MS, () => {
      console.log(
        `${backend.name}: a lock client of a model run did not finish closing within ${CLEANUP_TIMEOUT_MS} ms`,
      );
    });
    await withinTime(Promise.allSettled(connections.map((connected) => connected.close())), CLEANUP_TIMEOUT_MS, () => {
      console.log(
        `${backend.name}: a driver client of a model run did not finish closing within ${CLEANUP_TIMEOUT_MS} ms; left behind`,
      );
    });
  }
}

// A run takes seconds; one that takes this long hangs, and fails with its trace (and the seed that replays it).
const RUN_TIMEOUT_MS = 30_000;
const CLEANUP_TIMEOUT_MS = 3_000;

/** `promise`'s value, or `late()`'s once `ms` passed first. */
async function withinTime<T, L>(promise: Promise<T>, ms: number, late: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<L>((resolve) => (timer = setTimeout(() => resolve(late()), ms)));
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
