import { LockClient } from '@deadbolt/core';
import fc from 'fast-check';
import type { Backend, ConnectedExecutor } from '../backends/index.js';
import { countOverlaps } from './history.js';
import { LockModel } from './LockModel.js';
import type { ModelKind } from './ModelKind.js';
import { stepArbitraries, type Step } from './steps.js';
import { StepRunner } from './StepRunner.js';
import { modelTiming, type ModelTiming } from './timing.js';
import { ModelViolationError, ViolationLog, type ViolationCategory } from './Violation.js';

/** How many runs of how many steps, and how to replay one. */
export interface ModelBudget {
  /** Runs (fast-check cases). */
  readonly runs: number;
  /** Top-level steps per run (a `withLock` counts once here; its body adds more). */
  readonly minSteps: number;
  readonly maxSteps: number;
  /** Replays a seed (and, with `path`, one case of it) instead of a random one. */
  readonly seed?: number | undefined;
  readonly path?: string | undefined;
  /** Shrink a failing case to a smaller one (slow: every try is a real run). */
  readonly shrink?: boolean | undefined;
  /** Violations of these categories are not counted (to look past a known bug). */
  readonly ignore?: readonly ViolationCategory[] | undefined;
  /** Starts no new run after this many milliseconds (the soak's clock). */
  readonly timeLimit?: number | undefined;
}

/** What a model check of one kind on one backend did. */
export interface ModelReport {
  readonly kind: string;
  readonly backend: string;
  readonly seed: number;
  readonly runs: number;
  readonly steps: number;
  /** Overlaps of distinct excluding owners in the hold-interval history of every run. */
  readonly overlaps: number;
  readonly failure?:
    | {
        readonly path: string;
        readonly message: string;
        readonly categories: readonly ViolationCategory[];
        readonly replay: string;
      }
    | undefined;
  readonly millis: number;
}

/** fast-check's parameters for a budget: runs, the seed and path to replay, shrinking, the soak's clock. */
export function checkParameters(budget: ModelBudget): fc.Parameters<unknown> {
  return {
    numRuns: budget.runs,
    ...(budget.seed === undefined ? {} : { seed: budget.seed }),
    ...(budget.path === undefined ? {} : { path: budget.path }),
    endOnFailure: !budget.shrink,
    // The soak's clock: stop between runs once the time is up, which is no failure.
    ...(budget.timeLimit === undefined
      ? {}
      : { interruptAfterTimeLimit: Math.max(1, Math.floor(budget.timeLimit)), markInterruptAsFailure: false }),
  };
}

/** The budget from the environment: MODEL_RUNS, MODEL_STEPS, FC_SEED, FC_PATH, FC_SHRINK, MODEL_IGNORE. */
export function budgetFromEnv(
  defaults: { runs: number; steps: number },
  env: NodeJS.ProcessEnv = process.env,
): ModelBudget {
  const steps = Number(env['MODEL_STEPS'] ?? defaults.steps);
  const seed = env['FC_SEED'];
  return {
    runs: Number(env['MODEL_RUNS'] ?? defaults.runs),
    minSteps: Math.max(1, Math.floor(steps * 0.6)),
    maxSteps: steps,
    seed: seed === undefined || seed === '' ? undefined : Number(seed),
    path: env['FC_PATH'] || undefined,
    shrink: env['FC_SHRINK'] === '1',
    ignore: (env['MODEL_IGNORE'] ?? '').split(',').filter(Boolean) as ViolationCategory[],
  };
}

let runCounter = 0;

/**
 * Model-checks one kind on one backend: `budget.runs` random step sequences, each on fresh
 * clients (2 or 3, each on its own driver connection) over a fresh lock name. Resolves a report;
 * a failure carries the seed and path that replay it.
 */
export async function checkModel(
  kind: ModelKind,
  backend: Backend,
  budget: ModelBudget,
  timing: ModelTiming = modelTiming(),
): Promise<ModelReport> {
  const started = performance.now();
  const { step } = stepArbitraries(3, timing);
  let runs = 0;
  let steps = 0;
  let overlaps = 0;
  const property = fc.asyncProperty(
    fc.integer({ min: 2, max: 3 }),
    fc.array(step, { minLength: budget.minSteps, maxLength: budget.maxSteps }),
    async (clientCount, sequence) => {
      const result = await runOnce(kind, backend, clientCount, sequence, timing, budget.ignore ?? []);
      runs += 1;
      steps += result.steps;
      overlaps += result.overlaps;
      if (result.failure) throw result.failure.error;
    },
  );
  const details = await fc.check(property, checkParameters(budget));
  const report = {
    kind: kind.name,
    backend: backend.name,
    seed: details.seed,
    runs,
    steps,
    overlaps,
    millis: Math.round(performance.now() - started),
  };
  // Interrupted by the soak's clock before any failure: not a failure.
  if (!details.failed || details.counterexample === null) return report;
  const path = details.counterexamplePath ?? '';
  const error = details.errorInstance;
  const message = error instanceof Error ? error.message : String(error);
  const categories =
    error instanceof ModelViolationError ? [...new Set(error.violations.map((violation) => violation.category))] : [];
  const replay = `FC_SEED=${details.seed} FC_PATH=${path} MODEL_KINDS=${kind.name} DEADBOLT_BACKENDS=${backend.name}`;
  return { ...report, failure: { path, message, categories, replay } };
}

/** One run: fresh clients over a fresh name, the steps, then everything released and closed. */
async function runOnce(
  kind: ModelKind,
  backend: Backend,
  clientCount: number,
  sequence: readonly Step[],
  timing: ModelTiming,
  ignore: readonly ViolationCategory[],
): Promise<{ steps: number; overlaps: number; failure: { readonly error: unknown } | undefined }> {
  const name = `model:${kind.name}:${process.pid}:${++runCounter}`;
  const connections: ConnectedExecutor[] = [];
  const clients: LockClient[] = [];
  try {
    for (let i = 0; i < clientCount; i++) {
      const connected = await backend.connect();
      connections.push(connected);
      clients.push(
        new LockClient(connected.executor, {
          watchdogTimeout: timing.watchdogTimeout,
          commandTimeout: timing.commandTimeout,
        }),
      );
    }
    const model = new LockModel(timing);
    const runner = new StepRunner({
      kind,
      backend,
      name,
      clients,
      locks: clients.map((client) => kind.create(client, name)),
      model,
      log: new ViolationLog(ignore),
      trace: [],
    });
    // What the run threw, wrapped: whatever it was, even a falsy value, is thrown again.
    let failure: { readonly error: unknown } | undefined;
    try {
      await runner.runAll(sequence);
    } catch (error) {
      failure = { error };
    }
    for (const hold of model.holds) if (!hold.released) await hold.held.release().catch(() => undefined);
    return { steps: runner.steps, overlaps: countOverlaps(model.holds), failure };
  } finally {
    await Promise.allSettled(clients.map((client) => client.close()));
    await Promise.allSettled(connections.map((connected) => connected.close()));
  }
}

/** A report as one line, and the failure in full, for logs. */
export function formatReport(report: ModelReport): string {
  const head = `${report.kind} on ${report.backend}: ${report.runs} runs, ${report.steps} steps, seed ${report.seed}, ${report.millis} ms`;
  if (!report.failure) return head;
  return `${head}\nFAILED [${report.failure.categories.join(', ')}] — replay with ${report.failure.replay}\n${report.failure.message}`;
}
