import type { Backend } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import type { LockClient } from '@deadbolt/core';
import type { HeldExpirablePermits, PermitExpirableSemaphore } from '@deadbolt/semaphore';
import type { LeasedPermitKind } from '../permitKinds.js';
import { checkRuns, MODEL_CLIENTS, type ModelRunner, type SemaphoreModelReport } from './checkRuns.js';
import { ExpirableModel } from './ExpirableModel.js';
import { expirableStep, FIRST_STEP, type ExpirableStep, type LeaseChoice } from './expirableSteps.js';
import { judgeExpirableStep, storedMember, type StoredPermit } from './judgeExpirableStep.js';
import { judgeSemaphoreHistory } from './judgeSemaphoreStep.js';
import type { StepOutcome } from './SemaphoreModel.js';
import { describeStep } from './semaphoreSteps.js';
import { ShortLeases, SHORT_LEASE_MS } from './ShortLeases.js';

// A lease that outlasts any run.
const LONG_LEASE_MS = 60_000;

/**
 * Model-checks a `PermitExpirableSemaphore` kind on one backend: `budget.runs` random step
 * sequences, each on fresh clients over a fresh name, every step checked against
 * {@link ExpirableModel}, the semaphore's key, `{name}:timeout` and every acquisition's signal,
 * and each run's hold-interval history against the limit. A failure carries the seed and path
 * that replay it.
 */
export function checkExpirableModel(kind: LeasedPermitKind, backend: Backend, budget: ModelBudget): Promise<SemaphoreModelReport> {
  return checkRuns(kind.id, backend, budget, expirableStep(MODEL_CLIENTS), (name, sequence) => new ExpirableRun(backend, (client) => kind.createExpirable(client, name), sequence));
}

/** One run's steps on the real semaphores, beside the model; time passes by real sleeps (see {@link ShortLeases}). */
class ExpirableRun implements ModelRunner {
  readonly trace: string[] = [];
  excesses = 0;
  readonly #backend: Backend;
  readonly #create: (client: LockClient) => PermitExpirableSemaphore;
  readonly #sequence: readonly ExpirableStep[];
  readonly #model = new ExpirableModel();
  readonly #leases = new ShortLeases();
  readonly #holdings: HeldExpirablePermits[] = [];
  // Every permit id handed out, in the model's order.
  readonly #ids: string[] = [];

  constructor(backend: Backend, create: (client: LockClient) => PermitExpirableSemaphore, sequence: readonly ExpirableStep[]) {
    this.#backend = backend;
    this.#create = create;
    this.#sequence = sequence;
  }

  /**
   * Runs {@link FIRST_STEP}, then the sequence; before a step that could meet a short lease's
   * end, time passes first (a `pass` step of its own).
   */
  async run(clients: readonly LockClient[]): Promise<string | undefined> {
    const semaphores = clients.map(this.#create);
    for (const step of [FIRST_STEP, ...this.#sequence]) {
      const failure = (this.#leases.due() ? await this.#step(semaphores, { op: 'pass' }, ' (a short lease was near its end)') : undefined) ?? (await this.#step(semaphores, step));
      if (failure !== undefined) return failure;
    }
    return undefined;
  }

  /** Gives back every acquisition still held. */
  async releaseAll(): Promise<void> {
    await Promise.allSettled(this.#holdings.filter((holding) => !holding.released).map((holding) => holding.release()));
  }

  // One step: on Redis, then on the model; what broke, with the trace, if anything did.
  async #step(semaphores: readonly PermitExpirableSemaphore[], step: ExpirableStep, note = ''): Promise<string | undefined> {
    const at = this.trace.length;
    const outcome = await this.#perform(semaphores, step);
    const told = this.#holdings.map((holding) => holding.signal.aborted);
    const expected = this.#model.apply(step, at);
    const observed = { outcome, told, ...(await this.#read(semaphores[0] ?? fail('no client'))) };
    this.trace.push(`${at}: ${describeStep(step)}${note} → ${outcome} (model ${expected}; Redis ${String(observed.stored)}, ${observed.members.length} in {name}:timeout)`);
    const model = this.#model;
    const members = model.permits.flatMap((permit, index) => (permit.state === 'gone' ? [] : [{ member: storedMember(this.#ids[index] ?? ''), expired: permit.state === 'expired' }]));
    const found = judgeExpirableStep(
      { outcome: expected, exists: model.exists, available: model.available, limit: model.limit, members, told: model.holdings.map((holding) => holding.told) },
      observed,
    );
    const excesses = judgeSemaphoreHistory(model.grants, model.limits);
    this.excesses = excesses.length;
    found.push(...excesses);
    return found.length === 0 ? undefined : `model violated at step ${at}:\n  ${found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
  }

  // The semaphore's key and `{name}:timeout`, with the wall-clock times around the read.
  async #read(semaphore: PermitExpirableSemaphore): Promise<{ stored: string | null; members: StoredPermit[]; readFrom: number; readTo: number }> {
    const stored = await this.#backend.command(['GET', semaphore.name], semaphore.name);
    const readFrom = Date.now();
    const reply = (await this.#backend.command(['ZRANGE', semaphore.timeoutsKey, 0, -1, 'WITHSCORES'], semaphore.name)) as string[];
    const readTo = Date.now();
    const members: StoredPermit[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2) members.push({ member: String(reply[i]), score: Number(reply[i + 1]) });
    return { stored: stored === null ? null : String(stored), members, readFrom, readTo };
  }

  // Runs the step on the real semaphore and says what came of it, in the model's terms.
  async #perform(semaphores: readonly PermitExpirableSemaphore[], step: ExpirableStep): Promise<StepOutcome> {
    const sentAt = performance.now();
    try {
      const outcome = await this.#call(semaphores, step);
      if (setsShortLease(step, outcome)) this.#leases.started(sentAt, performance.now());
      return outcome;
    } catch (error) {
      return `error:${error instanceof Error ? error.name : String(error)}`;
    }
  }

  async #call(semaphores: readonly PermitExpirableSemaphore[], step: ExpirableStep): Promise<StepOutcome> {
    if (step.op === 'pass') {
      await this.#leases.pass();
      return 'done';
    }
    if (step.op === 'releaseHeld' || step.op === 'updateLeaseHeld') return this.#onHolding(semaphores, step);
    const semaphore = semaphores[step.client] ?? fail(`no client ${step.client}`);
    switch (step.op) {
      case 'trySetPermits':
        return String(await semaphore.trySetPermits(step.permits));
      case 'addPermits':
        await semaphore.addPermits(step.permits);
        return 'done';
      case 'availablePermits':
        return `value:${await semaphore.availablePermits()}`;
      case 'tryAcquire': {
        const held = await semaphore.tryAcquire(step.permits, step.lease === 'watchdog' ? {} : { leaseTime: leaseMs(step.lease) });
        if (held === null) return 'null';
        this.#holdings.push(held);
        this.#ids.push(...held.ids);
        return `held:${held.permits}`;
      }
      default:
        return this.#onId(semaphore, step);
    }
  }

  // `release()` or `updateLeaseTime(ms)` of the acquisition the step picks (the permits read when there is none).
  async #onHolding(semaphores: readonly PermitExpirableSemaphore[], step: Extract<ExpirableStep, { op: 'releaseHeld' | 'updateLeaseHeld' }>): Promise<StepOutcome> {
    const holding = this.#holdings.length === 0 ? undefined : this.#holdings[step.pick % this.#holdings.length];
    if (holding === undefined) return `value:${await (semaphores[0] ?? fail('no client')).availablePermits()}`;
    if (step.op === 'releaseHeld') await holding.release();
    else await holding.updateLeaseTime(leaseMs(step.lease));
    return 'done';
  }

  // `tryRelease(id)` or `updateLeaseTime(id, ms)` of the permit id the step picks (the permits read when there is none).
  async #onId(semaphore: PermitExpirableSemaphore, step: Extract<ExpirableStep, { op: 'releaseId' | 'updateLeaseId' }>): Promise<StepOutcome> {
    const id = this.#ids.length === 0 ? undefined : this.#ids[step.pick % this.#ids.length];
    if (id === undefined) return `value:${await semaphore.availablePermits()}`;
    return String(step.op === 'releaseId' ? await semaphore.tryRelease(id) : await semaphore.updateLeaseTime(id, leaseMs(step.lease)));
  }
}

function leaseMs(lease: Exclude<LeaseChoice, 'watchdog'>): number {
  return lease === 'short' ? SHORT_LEASE_MS : LONG_LEASE_MS;
}

// Whether the step, as it came out, started a short lease that time must now pass beyond.
function setsShortLease(step: ExpirableStep, outcome: StepOutcome): boolean {
  if (!('lease' in step) || step.lease !== 'short') return false;
  return outcome.startsWith('held:') || outcome === 'done' || outcome === 'true';
}

function fail(message: string): never {
  throw new Error(message);
}
