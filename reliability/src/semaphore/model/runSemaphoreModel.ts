import type { Backend } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { LockWaitTimeoutError, type LockClient } from '@deadbolt/core';
import type { PermitInterval } from '../permitHistory.js';
import type { CountingPermitKind, CountingSemaphore, PermitHolding } from '../permitKinds.js';
import { checkRuns, MODEL_CLIENTS, type ModelRunner, type SemaphoreModelReport } from './checkRuns.js';
import { judgeSemaphoreHistory, judgeSemaphoreStep } from './judgeSemaphoreStep.js';
import { SemaphoreModel, type StepOutcome } from './SemaphoreModel.js';
import { describeStep, semaphoreStep, type SemaphoreStep } from './semaphoreSteps.js';

/**
 * Model-checks a semaphore kind on one backend: `budget.runs` random step sequences, each on
 * fresh clients over a fresh name, every step checked against {@link SemaphoreModel} and Redis's
 * key, and each run's hold-interval history against the limit. A failure carries the seed and
 * path that replay it.
 */
export function checkSemaphoreModel(kind: CountingPermitKind, backend: Backend, budget: ModelBudget): Promise<SemaphoreModelReport> {
  return checkRuns(kind.id, backend, budget, semaphoreStep(MODEL_CLIENTS), (name, sequence) => new ModelRun(backend, name, (client) => kind.create(client, name), sequence));
}

/** One run's steps on the real semaphores, beside the model, with the history of real grants. */
class ModelRun implements ModelRunner {
  readonly trace: string[] = [];
  excesses = 0;
  readonly #backend: Backend;
  readonly #name: string;
  readonly #create: (client: LockClient) => CountingSemaphore;
  readonly #sequence: readonly SemaphoreStep[];
  readonly #model = new SemaphoreModel();
  readonly #holdings: PermitHolding[] = [];
  readonly #history: { id: string; permits: number; start: number; end: number }[] = [];

  constructor(backend: Backend, name: string, create: (client: LockClient) => CountingSemaphore, sequence: readonly SemaphoreStep[]) {
    this.#backend = backend;
    this.#name = name;
    this.#create = create;
    this.#sequence = sequence;
  }

  /** Runs the sequence on a semaphore of each client. */
  run(clients: readonly LockClient[]): Promise<string | undefined> {
    return this.steps(clients.map(this.#create), this.#sequence);
  }

  /** Runs `sequence`; the first step that breaks an invariant ends it, with the message and trace. */
  async steps(semaphores: readonly CountingSemaphore[], sequence: readonly SemaphoreStep[]): Promise<string | undefined> {
    for (const [at, step] of sequence.entries()) {
      const outcome = await this.#perform(semaphores, step, at);
      const expected = this.#model.apply(step, at);
      const stored = await this.#backend.command(['GET', this.#name], this.#name);
      this.trace.push(`${at}: ${describeStep(step)} → ${outcome} (model ${expected}; Redis ${String(stored)})`);
      const model = this.#model;
      const found = judgeSemaphoreStep(
        { outcome: expected, exists: model.exists, available: model.available, limit: model.limit, held: model.held },
        { outcome, stored: stored === null ? null : String(stored) },
      );
      const excesses = judgeSemaphoreHistory(this.#history, model.limits);
      this.excesses = excesses.length;
      found.push(...excesses);
      if (found.length > 0) return `model violated at step ${at}:\n  ${found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
    }
    return undefined;
  }

  /** Gives back every grant still held, so nothing is left taken. */
  async releaseAll(): Promise<void> {
    await Promise.allSettled(this.#holdings.map((holding) => holding.release()));
  }

  // Runs the step on the real semaphore and says what came of it, in the model's terms.
  async #perform(semaphores: readonly CountingSemaphore[], step: SemaphoreStep, at: number): Promise<StepOutcome> {
    try {
      return await this.#call(semaphores, step, at);
    } catch (error) {
      if (error instanceof LockWaitTimeoutError) return 'timeout';
      return `error:${error instanceof Error ? error.name : String(error)}`;
    }
  }

  async #call(semaphores: readonly CountingSemaphore[], step: SemaphoreStep, at: number): Promise<StepOutcome> {
    if (step.op === 'releaseHeld') return this.#releaseHeld(semaphores, step.pick, at);
    const semaphore = semaphores[step.client] ?? fail(`no client ${step.client}`);
    switch (step.op) {
      case 'trySetPermits':
        return String(await semaphore.trySetPermits(step.permits));
      case 'tryAcquire':
      case 'acquire': {
        const holding = step.op === 'acquire' ? await semaphore.acquire(step.permits, { waitTime: 0 }) : await semaphore.tryAcquire(step.permits);
        if (holding === null) return 'null';
        this.#holdings.push(holding);
        this.#history.push({ id: `#${this.#history.length}`, permits: holding.permits, start: at, end: Infinity });
        return `held:${holding.permits}`;
      }
      case 'release':
        await semaphore.release(step.permits);
        return 'done';
      case 'addPermits':
        await semaphore.addPermits(step.permits);
        return 'done';
      case 'drainPermits':
        return `value:${await semaphore.drainPermits()}`;
      case 'availablePermits':
        return `value:${await semaphore.availablePermits()}`;
    }
  }

  // Releases the grant the model picks (in taking order, as the real ones are kept).
  async #releaseHeld(semaphores: readonly CountingSemaphore[], pick: number, at: number): Promise<StepOutcome> {
    const index = this.#holdings.length === 0 ? undefined : pick % this.#holdings.length;
    const holding = index === undefined ? undefined : this.#holdings[index];
    if (holding === undefined) return `value:${await (semaphores[0] ?? fail('no client')).availablePermits()}`;
    const released = await holding.release();
    const grant = this.#history[index ?? 0];
    if (released === true && grant !== undefined) grant.end = at;
    return String(released);
  }
}

function fail(message: string): never {
  throw new Error(message);
}
