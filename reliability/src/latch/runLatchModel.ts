import type { Backend } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { RedisUnavailableError, type LockClient } from '@deadbolt/core';
import { CountDownLatch } from '@deadbolt/countdown-latch';
import {
  FaultInjector,
  FAULTY_COMMAND_TIMEOUT_MS,
  type FaultyClient,
  type InjectionCounts,
} from '../faults/modelFaults.js';
import { checkRuns, MODEL_CLIENTS, type ModelRunner, type SemaphoreModelReport } from '../semaphore/model/checkRuns.js';
import { describeStep } from '../semaphore/model/semaphoreSteps.js';
import { judgeLatchStep } from './judgeLatchStep.js';
import { LatchModel, type LatchOutcome } from './LatchModel.js';
import { faultyLatchStep, latchStep, type LatchStep } from './latchSteps.js';

/** The kind's id in reports and replay lines. */
export const LATCH_KIND = 'CountDownLatch';
// An `await` step waits this long: the latch either is open or is not, nothing changes meanwhile.
const SHORT_WAIT_MS = 20;
// A background wait lasts at most this long; the run aborts those still waiting at its end.
const BACKGROUND_WAIT_MS = 5_000;
const UNKNOWN = 'unknown';
// Replies to a late copy that ran nothing: refused past its deadline, or redirected by a cluster node.
const NOT_RUN = /^-(DEADBOLT_LATE|MOVED|ASK|TRYAGAIN|CLUSTERDOWN)\b/;
// A wait that resolves `true` learns so within this long of the latch opening: the wake-up's
// round trip. The step after it may still look before it did, so its result is read one step late.
const WAKE_SETTLE_MS = 30;

/**
 * Model-checks `CountDownLatch` on one backend: `budget.runs` random step sequences (trySetCount,
 * countDown, getCount, await with a short wait, delete, and awaits left waiting in the background)
 * on two fresh clients over a fresh name, every step checked against {@link LatchModel} and
 * Redis's key. With `faulty`, the second client reaches Redis through the backend's fault
 * proxies with a short `commandTimeout`, and injected steps hold a copy of one of its changes
 * for a late delivery, or cut it and partition past its records: a change whose outcome its
 * client did not learn must have run once or not at all, a late copy must be refused, and the
 * latch is never open while the model's count is above zero.
 */
export function checkLatchModel(backend: Backend, budget: ModelBudget, faulty = false): Promise<SemaphoreModelReport> {
  return checkRuns(
    LATCH_KIND,
    backend,
    budget,
    faulty ? faultyLatchStep(MODEL_CLIENTS) : latchStep(MODEL_CLIENTS),
    (name, sequence) => new LatchRun(backend, name.replace(/[{}]/g, ''), sequence),
    faulty ? { commandTimeout: FAULTY_COMMAND_TIMEOUT_MS } : undefined,
  );
}

/** An `await` left running in the background. */
interface BackgroundWait {
  readonly began: number;
  readonly controller: AbortController;
  /** `failed`: it rejected with something else than its abort or Redis unreachable (see `error`). */
  result: boolean | 'pending' | 'aborted' | 'unreachable' | 'failed';
  error?: string;
  /** Whether the judge has seen its result. */
  judged: boolean;
}

/** One run's steps on the real latches, beside the model. */
class LatchRun implements ModelRunner {
  readonly trace: string[] = [];
  readonly excesses = 0;
  readonly #backend: Backend;
  readonly #name: string;
  readonly #sequence: readonly LatchStep[];
  readonly #model = new LatchModel();
  // After each step, whether the model's latch was open.
  readonly #openAt: boolean[] = [];
  readonly #waits: BackgroundWait[] = [];
  #faults: FaultInjector | undefined;
  #openedEarly = 0;

  constructor(backend: Backend, name: string, sequence: readonly LatchStep[]) {
    this.#backend = backend;
    this.#name = name;
    this.#sequence = sequence;
  }

  get injected(): InjectionCounts | undefined {
    return this.#faults?.counts;
  }

  get tallies(): Readonly<Record<string, number>> {
    return { 'latches opened early': this.#openedEarly };
  }

  async run(clients: readonly LockClient[], faulty?: FaultyClient): Promise<string | undefined> {
    if (faulty !== undefined) this.#faults = new FaultInjector(faulty, this.#name);
    const latches = clients.map((client) => new CountDownLatch(client, this.#name));
    try {
      for (const [at, step] of this.#sequence.entries()) {
        const failure = await this.#step(latches, step, at);
        if (failure !== undefined) return failure;
      }
      // Waits that resolved after the last step are judged too.
      await new Promise((resolve) => setTimeout(resolve, WAKE_SETTLE_MS));
      return this.#judgeWaits(this.#sequence.length);
    } finally {
      for (const wait of this.#waits) wait.controller.abort(new Error('the run ended'));
    }
  }

  async releaseAll(): Promise<void> {
    // Nothing is held; every background wait is aborted when the run ends.
  }

  async #step(latches: readonly CountDownLatch[], step: LatchStep, at: number): Promise<string | undefined> {
    const { outcome, note, answeredLate } = await this.#perform(latches, step, at);
    let expected: LatchOutcome;
    const found: string[] = [];
    if (outcome === UNKNOWN) {
      await this.#faults?.settle();
      const stored = await this.#read();
      const change = step.op === 'inject' ? step.step : step;
      const ran = this.#model.clone();
      ran.apply(change);
      const shown = [
        ['not run', this.#model.clone()],
        ['run once', ran],
      ].find(([, model]) => (model as LatchModel).stored === stored) as [string, LatchModel] | undefined;
      if (shown === undefined)
        found.push(
          `[copy] Redis holds ${String(stored)} after ${describeStep(step)}: neither the request run once (${String(ran.stored)}) nor not at all (${String(this.#model.stored)})`,
        );
      else {
        this.#model.adopt(shown[1]);
        this.trace.push(`${at}: ${describeStep(step)} → unknown outcome; Redis shows it ${shown[0]}`);
      }
      expected = UNKNOWN;
    } else {
      expected = this.#model.apply(step);
    }
    this.#openAt[at] = this.#model.open;
    const stored = await this.#read();
    this.trace.push(`${at}: ${describeStep(step)}${note} → ${outcome} (model ${expected}; Redis ${String(stored)})`);
    const judgement = judgeLatchStep(
      { outcome: expected, stored: this.#model.stored, openSince: (began) => this.#openSince(began) },
      { outcome, stored, opened: [], answeredLate },
    );
    this.#openedEarly += judgement.openedEarly;
    found.push(...judgement.found);
    const waits = this.#judgeWaits(at);
    if (waits !== undefined) found.push(waits);
    return found.length === 0
      ? undefined
      : `model violated at step ${at}:\n  ${found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
  }

  // Background waits that resolved `true` since they were last looked at must have begun before
  // a step after which the latch was open (up to `at`).
  #judgeWaits(at: number): string | undefined {
    const failed = this.#waits.filter((wait) => wait.result === 'failed' && !wait.judged);
    const opened = this.#waits.filter((wait) => wait.result === true && !wait.judged);
    for (const wait of [...failed, ...opened]) wait.judged = true;
    if (failed.length > 0)
      return `[wait] a background wait begun at step ${failed[0]?.began} failed: ${failed[0]?.error}\ntrace:\n${this.trace.join('\n')}`;
    const judgement = judgeLatchStep(
      { outcome: '', stored: null, openSince: (began) => this.#openSince(began, at) },
      { outcome: '', stored: null, opened: opened.map((wait) => wait.began), answeredLate: [] },
    );
    this.#openedEarly += judgement.openedEarly;
    if (judgement.found.length === 0) return undefined;
    return `${judgement.found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
  }

  // Whether the model's latch was open after some step from `began` (which changed nothing: the
  // state the wait first read) to `until`.
  #openSince(began: number, until = this.#openAt.length - 1): boolean {
    for (let step = began; step <= until; step++) if (this.#openAt[step] === true) return true;
    return false;
  }

  async #read(): Promise<string | null> {
    // GET: the count as a string, or nil.
    return (await this.#backend.command(['GET', this.#name], this.#name)) as string | null;
  }

  async #perform(
    latches: readonly CountDownLatch[],
    step: LatchStep,
    at: number,
  ): Promise<{ outcome: LatchOutcome; note: string; answeredLate: readonly string[] }> {
    if (step.op !== 'inject')
      return { outcome: await outcomeOf(() => this.#call(latches, step, at)), note: '', answeredLate: [] };
    const faults = this.#faults;
    if (faults === undefined || !faults.canInject)
      return {
        outcome: await outcomeOf(() => this.#call(latches, step.step, at)),
        note: ' (not injected)',
        answeredLate: [],
      };
    const injection = await faults.around(step.fault, () => this.#call(latches, step.step, at));
    const late = injection.late;
    const note = !injection.injected
      ? ' (no request to inject into)'
      : late !== undefined
        ? ` (late copy: ${late.replies.join(', ')})`
        : ` (cut, partitioned; ${injection.cut?.resent ?? 0} re-sent after)`;
    // Every change of a latch carries a deadline: its late copy must be refused (or, in a
    // cluster, sent to a node that no longer serves its slot, have run nowhere).
    const answeredLate = late === undefined ? [] : late.replies.filter((reply) => !NOT_RUN.test(reply));
    const outcome =
      injection.outcome.status === 'fulfilled' ? injection.outcome.value : outcomeOfError(injection.outcome.reason);
    return { outcome, note, answeredLate };
  }

  async #call(latches: readonly CountDownLatch[], step: LatchStep, at: number): Promise<LatchOutcome> {
    if (step.op === 'inject') return this.#call(latches, step.step, at);
    if (step.op === 'waitInBackground') {
      const controller = new AbortController();
      const wait: BackgroundWait = { began: at, controller, result: 'pending', judged: false };
      this.#waits.push(wait);
      (latches[0] ?? fail('no client')).await({ waitTime: BACKGROUND_WAIT_MS, signal: controller.signal }).then(
        (open) => (wait.result = open),
        (error: unknown) => {
          if (controller.signal.aborted) wait.result = 'aborted';
          else if (error instanceof RedisUnavailableError) wait.result = 'unreachable';
          else
            Object.assign(wait, {
              result: 'failed',
              error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
            });
        },
      );
      return 'waiting';
    }
    const latch = latches[step.client] ?? fail(`no client ${step.client}`);
    switch (step.op) {
      case 'trySetCount':
        return String(await latch.trySetCount(step.count));
      case 'countDown':
        await latch.countDown();
        return 'done';
      case 'getCount':
        return `value:${await latch.getCount()}`;
      case 'await':
        return String(await latch.await({ waitTime: SHORT_WAIT_MS }));
      case 'delete':
        return String(await latch.delete());
    }
  }
}

async function outcomeOf(call: () => Promise<LatchOutcome>): Promise<LatchOutcome> {
  try {
    return await call();
  } catch (error) {
    return outcomeOfError(error);
  }
}

function outcomeOfError(error: unknown): LatchOutcome {
  if (error instanceof RedisUnavailableError) return UNKNOWN;
  return `error:${error instanceof Error ? error.name : String(error)}`;
}

function fail(message: string): never {
  throw new Error(message);
}
