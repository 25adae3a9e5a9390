import type { Backend, ConnectedExecutor } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { LockClient } from '@deadbolt/core';
import fc from 'fast-check';

/** What a model check of one semaphore kind on one backend did. */
export interface SemaphoreModelReport {
  readonly kind: string;
  readonly backend: string;
  readonly seed: number;
  readonly runs: number;
  readonly steps: number;
  /** Grants beyond the limit found in the hold-interval histories. */
  readonly excesses: number;
  /** The first failure, with the environment that replays it. */
  readonly failure?: { readonly message: string; readonly replay: string };
}

/** What one run of a model came to: the steps it took, the history's excesses, its first failure. */
export interface ModelRunResult {
  readonly steps: number;
  readonly excesses: number;
  readonly failure?: string;
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
): Promise<SemaphoreModelReport> {
  const runOnce = (sequence: readonly Step[]) => onFreshClients(backend, MODEL_CLIENTS, runnerFor(`model:${kindId}:${process.pid}:${++runCounter}`, sequence));
  let runs = 0;
  let steps = 0;
  let excesses = 0;
  const property = fc.asyncProperty(fc.array(step, { minLength: budget.minSteps, maxLength: budget.maxSteps }), async (sequence) => {
    const result = await runOnce(sequence);
    runs++;
    steps += result.steps;
    excesses += result.excesses;
    if (result.failure !== undefined) throw new Error(result.failure);
  });
  const details = await fc.check(property, {
    numRuns: budget.runs,
    endOnFailure: budget.shrink !== true,
    ...(budget.seed === undefined ? {} : { seed: budget.seed }),
    ...(budget.path === undefined ? {} : { path: budget.path }),
  });
  const report = { kind: kindId, backend: backend.name, seed: details.seed, runs, steps, excesses };
  if (!details.failed) return report;
  const error = details.errorInstance;
  const replay = `FC_SEED=${details.seed} FC_PATH=${details.counterexamplePath ?? ''} MODEL_KINDS=${kindId} DEADBOLT_BACKENDS=${backend.name}`;
  return { ...report, failure: { message: error instanceof Error ? error.message : String(error), replay } };
}

/** A report as one line, and its failure in full with the replay line. */
export function formatSemaphoreReport(report: SemaphoreModelReport): string {
  const head = `${report.kind} on ${report.backend}: ${report.runs} runs, ${report.steps} steps, seed ${report.seed}`;
  return report.failure === undefined ? head : `${head}\nFAILED — replay with ${report.failure.replay}\n${report.failure.message}`;
}

/** A model run as {@link onFreshClients} drives it. */
export interface ModelRunner {
  readonly trace: readonly string[];
  readonly excesses: number;
  /** Runs the steps on the clients; the first broken invariant, if any. */
  run(clients: readonly LockClient[]): Promise<string | undefined>;
  /** Gives back whatever the run still holds. */
  releaseAll(): Promise<void>;
}

/**
 * Runs `runner` on `count` fresh lock clients, each on its own driver connection; whatever
 * happens, gives back what it holds and closes them.
 */
export async function onFreshClients(backend: Backend, count: number, runner: ModelRunner): Promise<ModelRunResult> {
  const connections: ConnectedExecutor[] = [];
  const clients: LockClient[] = [];
  try {
    for (let i = 0; i < count; i++) {
      const connected = await backend.connect();
      connections.push(connected);
      clients.push(new LockClient(connected.executor));
    }
    const failure = await runner.run(clients);
    return { steps: runner.trace.length, excesses: runner.excesses, ...(failure === undefined ? {} : { failure }) };
  } finally {
    await runner.releaseAll();
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(connections.map((connected) => connected.close()));
  }
}
