import type { Backend } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { LockLostError, LockWaitTimeoutError, RedisUnavailableError, type LockClient } from '@deadbolt/core';
import { holdMarkersKey } from '@deadbolt/core/kit';
import { FaultInjector, FAULTY_COMMAND_TIMEOUT_MS, type FaultyClient } from '../../faults/modelFaults.js';
import type { CountingPermitKind, CountingSemaphore, PermitHolding } from '../permitKinds.js';
import { checkRuns, MODEL_CLIENTS, type ModelRunner, type SemaphoreModelReport } from './checkRuns.js';
import { judgeSemaphoreHistory, judgeSemaphoreStep } from './judgeSemaphoreStep.js';
import { SemaphoreModel, type StepOutcome } from './SemaphoreModel.js';
import {
  describeStep,
  faultySemaphoreStep,
  semaphoreStep,
  type MutatingSemaphoreStep,
  type SemaphoreStep,
} from './semaphoreSteps.js';

// Reads the semaphore's key (KEYS[1]) and the values of its hold markers (KEYS[2]) at one moment.
const READ_BOTH = "return { redis.call('GET', KEYS[1]), redis.call('HVALS', KEYS[2]) }";
// What a call that failed with Redis unreachable came to: the model then reads Redis to learn
// whether its request ran (once) or not.
const UNKNOWN = 'unknown';
// How often a release of unknown outcome is sent again before the run gives up on it.
const RELEASE_TRIES = 10;
const RELEASE_PAUSE_MS = 100;

/**
 * Model-checks a semaphore kind on one backend: `budget.runs` random step sequences, each on
 * fresh clients over a fresh name, every step checked against {@link SemaphoreModel} and Redis's
 * key, and each run's hold-interval history against the limit. A failure carries the seed and
 * path that replay it.
 */
export function checkSemaphoreModel(
  kind: CountingPermitKind,
  backend: Backend,
  budget: ModelBudget,
): Promise<SemaphoreModelReport> {
  return checkRuns(
    kind.id,
    backend,
    budget,
    semaphoreStep(MODEL_CLIENTS),
    (name, sequence) => new ModelRun(backend, name, (client) => kind.create(client, name), sequence),
  );
}

/**
 * The same with late copies and cuts (issue 30): the second client reaches Redis through the
 * backend's fault proxies with a short `commandTimeout`, and injected steps hold a copy of one of
 * its changes for a late delivery, or cut it and partition past its records. A change whose
 * outcome its client did not learn must have run once or not at all: the model reads Redis once
 * every copy is past its deadline and takes on whichever of the two it shows (an acquisition that
 * ran and could not be given back keeps its permits, marked held by nobody), and fails when Redis
 * shows neither.
 */
export function checkFaultySemaphoreModel(
  kind: CountingPermitKind,
  backend: Backend,
  budget: ModelBudget,
): Promise<SemaphoreModelReport> {
  return checkRuns(
    kind.id,
    backend,
    budget,
    faultySemaphoreStep(MODEL_CLIENTS),
    (name, sequence) => new ModelRun(backend, name, (client) => kind.create(client, name), sequence),
    { commandTimeout: FAULTY_COMMAND_TIMEOUT_MS },
  );
}

/** What Redis holds of a semaphore: its key, and the permits its holds hash marks as held. */
interface SemaphoreState {
  readonly stored: string | null;
  readonly marked: number;
}

/** One run's steps on the real semaphores, beside the model, with the history of real grants. */
class ModelRun implements ModelRunner {
  readonly trace: string[] = [];
  excesses = 0;
  readonly #backend: Backend;
  readonly #name: string;
  readonly #create: (client: LockClient) => CountingSemaphore;
  readonly #sequence: readonly SemaphoreStep[];
  #model = new SemaphoreModel();
  readonly #holdings: PermitHolding[] = [];
  // Which client took each grant, in the same order.
  readonly #takers: number[] = [];
  readonly #history: { id: string; permits: number; start: number; end: number }[] = [];
  // Acquisitions that ran, unknown to their client, and were never given back.
  readonly #orphans: { id: string; permits: number; start: number; end: number }[] = [];
  #faults: FaultInjector | undefined;

  constructor(
    backend: Backend,
    name: string,
    create: (client: LockClient) => CountingSemaphore,
    sequence: readonly SemaphoreStep[],
  ) {
    this.#backend = backend;
    this.#name = name;
    this.#create = create;
    this.#sequence = sequence;
  }

  get injected() {
    return this.#faults?.counts;
  }

  get tallies(): Readonly<Record<string, number>> {
    return this.#faults === undefined
      ? {}
      : { 'permits kept by acquisitions of unknown outcome': this.#model.orphaned };
  }

  /** Runs the sequence on a semaphore of each client. */
  run(clients: readonly LockClient[], faulty?: FaultyClient): Promise<string | undefined> {
    if (faulty !== undefined) this.#faults = new FaultInjector(faulty, this.#name);
    return this.steps(clients.map(this.#create), this.#sequence);
  }

  /** Runs `sequence`; the first step that breaks an invariant ends it, with the message and trace. */
  async steps(
    semaphores: readonly CountingSemaphore[],
    sequence: readonly SemaphoreStep[],
  ): Promise<string | undefined> {
    for (const [at, step] of sequence.entries()) {
      const { outcome, note, resent } = await this.#perform(semaphores, step, at);
      let expected: StepOutcome;
      let state: SemaphoreState;
      const found: string[] = [];
      if (outcome === UNKNOWN) {
        // Every copy of the request is past its deadline by now: Redis shows what it did.
        await this.#faults?.settle();
        state = await this.#read();
        const resolved = this.#resolve(step, at, state);
        expected = UNKNOWN;
        if (resolved === undefined)
          found.push(
            `[copy] Redis shows ${JSON.stringify(state)} after ${describeStep(step)}: neither the request run once nor not at all`,
          );
        else this.trace.push(`${at}: ${describeStep(step)} → unknown outcome; Redis shows it ${resolved}`);
      } else {
        state = await this.#read();
        // A release sent again after one of unknown outcome that finds its permits given back
        // (by a copy of the first) says so with LockLostError: the model's `true`.
        const released = resent && outcome === 'error:LockLostError' ? 'true' : outcome;
        expected = this.#applyWithGiveBacks(step, at, released, state);
        if (expected === released) expected = outcome;
      }
      this.trace.push(
        `${at}: ${describeStep(step)}${note} → ${outcome} (model ${expected}; Redis ${String(state.stored)}, ${state.marked} marked held)`,
      );
      const model = this.#model;
      found.push(
        ...judgeSemaphoreStep(
          {
            outcome: expected,
            exists: model.exists,
            available: model.available,
            limit: model.limit,
            held: model.held + model.orphaned,
          },
          { outcome, stored: state.stored, marked: state.marked },
        ),
      );
      const excesses = judgeSemaphoreHistory([...this.#history, ...this.#orphans], model.limits);
      this.excesses = excesses.length;
      found.push(...excesses);
      if (found.length > 0)
        return `model violated at step ${at}:\n  ${found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
    }
    return undefined;
  }

  /** Gives back every grant still held, so nothing is left taken. */
  async releaseAll(): Promise<void> {
    await Promise.allSettled(this.#holdings.map((holding) => holding.release()));
  }

  /**
   * Applies `step` to the model; when Redis and the outcome show that the give-back of an
   * acquisition the model takes as never given back landed meanwhile (before the step's own
   * request, or after it), to the model with that give-back too.
   */
  #applyWithGiveBacks(step: SemaphoreStep, at: number, outcome: StepOutcome, state: SemaphoreState): StepOutcome {
    let first: [StepOutcome, SemaphoreModel] | undefined;
    const options = [
      { orphan: undefined, before: true },
      ...this.#orphans
        .filter((each) => each.end === Infinity)
        .flatMap((orphan) => [true, false].map((before) => ({ orphan, before }))),
    ];
    for (const { orphan, before } of options) {
      const model = this.#model.clone();
      if (orphan !== undefined && before) model.giveBack(orphan.permits);
      const expected = model.apply(step, at);
      if (orphan !== undefined && !before) model.giveBack(orphan.permits);
      first ??= [expected, model];
      if (
        expected !== outcome ||
        (model.exists ? String(model.available) : null) !== state.stored ||
        model.held + model.orphaned !== state.marked
      )
        continue;
      this.#model.adopt(model);
      if (orphan !== undefined) {
        orphan.end = at;
        this.trace.push(`${at}: the give-back of ${orphan.id} landed late`);
      }
      return expected;
    }
    const [expected, model] = first ?? fail('no model');
    this.#model.adopt(model);
    return expected;
  }

  async #read(): Promise<SemaphoreState> {
    const holds = holdMarkersKey(this.#name);
    // One script: a give-back landing between two reads would show a state no history has.
    const [stored, marks] = (await this.#backend.command(['EVAL', READ_BOTH, 2, this.#name, holds], this.#name)) as [
      string | null,
      string[],
    ];
    return { stored, marked: marks.reduce<number>((sum, value) => sum + Number(value), 0) };
  }

  /**
   * After a change of unknown outcome: the model as if it ran once, or not at all (for an
   * acquisition: not at all, given back, or taken and never given back), whichever Redis shows;
   * `undefined` when it shows none of them (a copy counted again, say).
   */
  #resolve(step: SemaphoreStep, at: number, state: SemaphoreState): string | undefined {
    const change = step.op === 'inject' ? step.step : step;
    const candidates: [string, SemaphoreModel][] = [['not run (or given back)', this.#model.clone()]];
    const ran = this.#model.clone();
    if (change.op === 'tryAcquire' || change.op === 'acquire') {
      ran.orphan(change.permits);
      candidates.push(['taken and never given back', ran]);
    } else if (change.op !== 'releaseHeld' && change.op !== 'availablePermits') {
      ran.apply(change, at);
      candidates.push(['run once', ran]);
    }
    // The give-back of an earlier acquisition taken as never given back may have landed meanwhile.
    const pending = this.#orphans.filter((orphan) => orphan.end === Infinity);
    for (const [how, model] of [...candidates]) {
      for (const orphan of pending) {
        const late = model.clone();
        late.giveBack(orphan.permits);
        candidates.push([`${how}, and the give-back of ${orphan.id} landed late`, late]);
      }
    }
    const shown = candidates.find(
      ([, model]) =>
        (model.exists ? String(model.available) : null) === state.stored &&
        model.held + model.orphaned === state.marked,
    );
    if (shown === undefined) return undefined;
    const [how, model] = shown;
    this.#model.adopt(model);
    for (const orphan of pending) if (how.includes(`give-back of ${orphan.id} `)) orphan.end = at;
    if (how === 'taken and never given back' && 'permits' in change)
      this.#orphans.push({ id: `orphan@${at}`, permits: change.permits, start: at, end: Infinity });
    return how;
  }

  // Runs the step on the real semaphore and says what came of it, in the model's terms.
  async #perform(
    semaphores: readonly CountingSemaphore[],
    step: SemaphoreStep,
    at: number,
  ): Promise<{ outcome: StepOutcome; note: string; resent?: true }> {
    if (step.op !== 'inject')
      return { outcome: await this.#outcomeOf(() => this.#call(semaphores, step, at)), note: '' };
    const faults = this.#faults;
    const proxied = semaphores.length - 1;
    // A release of a grant another client took does not go through the proxy: run it plainly.
    const reachesProxy = step.step.op !== 'releaseHeld' || this.#takers[this.#pick(step.step.pick) ?? -1] === proxied;
    if (faults === undefined || !faults.canInject || !reachesProxy) {
      return { outcome: await this.#outcomeOf(() => this.#call(semaphores, step.step, at)), note: ' (not injected)' };
    }
    const injection = await faults.around(step.fault, () => this.#call(semaphores, step.step, at));
    const note = !injection.injected
      ? ' (no request to inject into)'
      : injection.late !== undefined
        ? ` (late copy: ${injection.late.replies.join(', ')})`
        : ` (cut, partitioned; ${injection.cut?.resent ?? 0} re-sent after)`;
    const { outcome } = injection;
    // A release of unknown outcome leaves the permits releasable: sent again (the same request),
    // it gives back only what is still held, as an application would retry it.
    if (
      outcome.status === 'rejected' &&
      outcome.reason instanceof RedisUnavailableError &&
      step.step.op === 'releaseHeld'
    ) {
      const again = await this.#releaseAgain(semaphores, step.step, at);
      return { outcome: again.status === 'fulfilled' ? again.value : outcomeOfError(again.reason), note, resent: true };
    }
    return { outcome: outcome.status === 'fulfilled' ? outcome.value : outcomeOfError(outcome.reason), note };
  }

  async #releaseAgain(
    semaphores: readonly CountingSemaphore[],
    step: MutatingSemaphoreStep,
    at: number,
  ): Promise<PromiseSettledResult<StepOutcome>> {
    let last: PromiseSettledResult<StepOutcome> = { status: 'rejected', reason: new Error('not tried') };
    for (let tries = 0; tries < RELEASE_TRIES; tries++) {
      [last] = await Promise.allSettled([this.#call(semaphores, step, at, true)]);
      if (last.status === 'fulfilled' || !(last.reason instanceof RedisUnavailableError)) return last;
      await new Promise((resolve) => setTimeout(resolve, RELEASE_PAUSE_MS));
    }
    return last;
  }

  async #outcomeOf(call: () => Promise<StepOutcome>): Promise<StepOutcome> {
    try {
      return await call();
    } catch (error) {
      return outcomeOfError(error);
    }
  }

  async #call(
    semaphores: readonly CountingSemaphore[],
    step: SemaphoreStep,
    at: number,
    resent = false,
  ): Promise<StepOutcome> {
    if (step.op === 'inject') return this.#call(semaphores, step.step, at, resent);
    if (step.op === 'releaseHeld') return this.#releaseHeld(semaphores, step.pick, at, resent);
    const semaphore = semaphores[step.client] ?? fail(`no client ${step.client}`);
    switch (step.op) {
      case 'trySetPermits':
        return String(await semaphore.trySetPermits(step.permits));
      case 'tryAcquire':
      case 'acquire': {
        const holding =
          step.op === 'acquire'
            ? await semaphore.acquire(step.permits, { waitTime: 0 })
            : await semaphore.tryAcquire(step.permits);
        if (holding === null) return 'null';
        this.#holdings.push(holding);
        this.#takers.push(step.client);
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

  // The grant a `releaseHeld` with `pick` releases (in taking order, as the model's): undefined when none was taken.
  #pick(pick: number): number | undefined {
    return this.#holdings.length === 0 ? undefined : pick % this.#holdings.length;
  }

  // Releases the grant the model picks (in taking order, as the real ones are kept).
  // `resent`: a release sent again after one of unknown outcome; its LockLostError says a copy
  // of the first gave the permits back, so the grant ends all the same.
  async #releaseHeld(
    semaphores: readonly CountingSemaphore[],
    pick: number,
    at: number,
    resent: boolean,
  ): Promise<StepOutcome> {
    const index = this.#pick(pick);
    const holding = index === undefined ? undefined : this.#holdings[index];
    if (holding === undefined) return `value:${await (semaphores[0] ?? fail('no client')).availablePermits()}`;
    const grant = this.#history[index ?? 0];
    try {
      const released = await holding.release();
      if (released && grant !== undefined) grant.end = at;
      return String(released);
    } catch (error) {
      if (resent && error instanceof LockLostError && grant !== undefined) grant.end = at;
      throw error;
    }
  }
}

// A call's error in the model's terms: a wait that ran out, an outcome not learned, or another error by name.
function outcomeOfError(error: unknown): StepOutcome {
  if (error instanceof LockWaitTimeoutError) return 'timeout';
  if (error instanceof RedisUnavailableError) return UNKNOWN;
  return `error:${error instanceof Error ? error.name : String(error)}`;
}

function fail(message: string): never {
  throw new Error(message);
}
