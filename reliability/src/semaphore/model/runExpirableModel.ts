import type { Backend } from '@deadbolt/conformance/connect';
import type { ModelBudget } from '@deadbolt/conformance/model';
import { RedisUnavailableError, type LockClient } from '@deadbolt/core';
import type { HeldExpirablePermits, PermitExpirableSemaphore } from '@deadbolt/semaphore';
import {
  FaultInjector,
  FAULTY_COMMAND_TIMEOUT_MS,
  type FaultyClient,
  type InjectionCounts,
} from '../../faults/modelFaults.js';
import type { LeasedPermitKind } from '../permitKinds.js';
import { checkRuns, MODEL_CLIENTS, type ModelRunner, type SemaphoreModelReport } from './checkRuns.js';
import { ExpirableModel } from './ExpirableModel.js';
import {
  expirableStep,
  faultyExpirableStep,
  FIRST_STEP,
  type ExpirableStep,
  type LeaseChoice,
  type MutatingExpirableStep,
} from './expirableSteps.js';
import { judgeExpirableStep, storedMember, type StoredPermit } from './judgeExpirableStep.js';
import { judgeSemaphoreHistory } from './judgeSemaphoreStep.js';
import type { StepOutcome } from './SemaphoreModel.js';
import { describeStep } from './semaphoreSteps.js';
import { ShortLeases, SHORT_LEASE_MS } from './ShortLeases.js';

// A lease that outlasts any run.
const LONG_LEASE_MS = 60_000;
// A lease Redis shows ending sooner than this after the read is a short one (ended or not); the
// others (a watchdog's, a long one) end tens of seconds later.
const SHORT_LEASE_BOUND_MS = SHORT_LEASE_MS + 2_000;
// Reads the semaphore's key (KEYS[1]) and its `{name}:timeout` (KEYS[2], members with scores) at one moment.
const READ_BOTH = "return { redis.call('GET', KEYS[1]), redis.call('ZRANGE', KEYS[2], 0, -1, 'WITHSCORES') }";
// What a call that failed with Redis unreachable came to: the model then reads Redis to learn
// whether its request ran (once) or not.
const UNKNOWN = 'unknown';
// A release of unknown outcome is sent again this often, this far apart: as an application would.
const RELEASE_TRIES = 10;
const RELEASE_PAUSE_MS = 100;

/**
 * Model-checks a `PermitExpirableSemaphore` kind on one backend: `budget.runs` random step
 * sequences, each on fresh clients over a fresh name, every step checked against
 * {@link ExpirableModel}, the semaphore's key, `{name}:timeout` and every acquisition's signal,
 * and each run's hold-interval history against the limit. A failure carries the seed and path
 * that replay it.
 */
export function checkExpirableModel(
  kind: LeasedPermitKind,
  backend: Backend,
  budget: ModelBudget,
): Promise<SemaphoreModelReport> {
  return checkRuns(
    kind.id,
    backend,
    budget,
    expirableStep(MODEL_CLIENTS),
    (name, sequence) => new ExpirableRun(backend, name, (client) => kind.createExpirable(client, name), sequence),
  );
}

/**
 * The same with late copies and cuts (issue 30): the second client reaches Redis through the
 * backend's fault proxies with a short `commandTimeout`, and injected steps hold a copy of one of
 * its changes for a late delivery, or cut it and partition past its records. A change whose
 * outcome its client did not learn must have run once or not at all, whichever Redis shows (an
 * acquisition that ran and could not be given back keeps its permits, held by nobody, until
 * their lease ends); a release of unknown outcome tells its holder at once (its signal aborts)
 * and is sent again; an `updateLeaseTime` of unknown outcome leaves its holder with the earlier
 * of the two leases, and its signal aborts then.
 */
export function checkFaultyExpirableModel(
  kind: LeasedPermitKind,
  backend: Backend,
  budget: ModelBudget,
): Promise<SemaphoreModelReport> {
  return checkRuns(
    kind.id,
    backend,
    budget,
    faultyExpirableStep(MODEL_CLIENTS),
    (name, sequence) => new ExpirableRun(backend, name, (client) => kind.createExpirable(client, name), sequence),
    { commandTimeout: FAULTY_COMMAND_TIMEOUT_MS },
  );
}

/** What Redis showed of the semaphore after a step. */
// Something sent earlier that may land late, applied to a model when Redis shows it did.
interface LateLanding {
  readonly what: string;
  land(model: ExpirableModel, at: number): void;
}

interface ExpirableState {
  readonly stored: string | null;
  readonly members: StoredPermit[];
  readonly readFrom: number;
  readonly readTo: number;
}

/** One run's steps on the real semaphores, beside the model; time passes by real sleeps (see {@link ShortLeases}). */
class ExpirableRun implements ModelRunner {
  readonly trace: string[] = [];
  excesses = 0;
  readonly #backend: Backend;
  readonly #name: string;
  readonly #create: (client: LockClient) => PermitExpirableSemaphore;
  readonly #sequence: readonly ExpirableStep[];
  readonly #model = new ExpirableModel();
  readonly #leases = new ShortLeases();
  readonly #holdings: HeldExpirablePermits[] = [];
  // Which client made each acquisition, in the same order.
  readonly #takers: number[] = [];
  // Every permit id handed out, in the model's order.
  readonly #ids: string[] = [];
  // `tryRelease(id)`s of unknown outcome that Redis showed not run: the permit and the step.
  readonly #lateReleases: { readonly index: number; readonly sentAt: number }[] = [];
  #faults: FaultInjector | undefined;

  constructor(
    backend: Backend,
    name: string,
    create: (client: LockClient) => PermitExpirableSemaphore,
    sequence: readonly ExpirableStep[],
  ) {
    this.#backend = backend;
    this.#name = name;
    this.#create = create;
    this.#sequence = sequence;
  }

  get injected(): InjectionCounts | undefined {
    return this.#faults?.counts;
  }

  get tallies(): Readonly<Record<string, number>> {
    return this.#faults === undefined
      ? {}
      : { 'permits taken by acquisitions of unknown outcome': this.#model.orphans.length };
  }

  /**
   * Runs {@link FIRST_STEP}, then the sequence; before a step that could meet a short lease's
   * end, time passes first (a `pass` step of its own), and before an injected step (which waits
   * out a late delivery or a partition) whenever a short lease is still running.
   */
  async run(clients: readonly LockClient[], faulty?: FaultyClient): Promise<string | undefined> {
    if (faulty !== undefined) this.#faults = new FaultInjector(faulty, this.#name);
    const semaphores = clients.map(this.#create);
    for (const step of [FIRST_STEP, ...this.#sequence]) {
      const passFirst = this.#leases.due() || (step.op === 'inject' && this.#leases.pending);
      const failure =
        (passFirst
          ? await this.#step(
              semaphores,
              { op: 'pass' },
              step.op === 'inject' ? ' (before a step that waits)' : ' (a short lease was near its end)',
            )
          : undefined) ?? (await this.#step(semaphores, step));
      if (failure !== undefined) return failure;
    }
    return undefined;
  }

  /** Gives back every acquisition still held. */
  async releaseAll(): Promise<void> {
    await Promise.allSettled(this.#holdings.filter((holding) => !holding.released).map((holding) => holding.release()));
  }

  // One step: on Redis, then on the model; what broke, with the trace, if anything did.
  async #step(
    semaphores: readonly PermitExpirableSemaphore[],
    step: ExpirableStep,
    note = '',
  ): Promise<string | undefined> {
    const at = this.trace.length;
    const performed = await this.#perform(semaphores, step);
    const { outcome } = performed;
    const found: string[] = [];
    let expected: StepOutcome;
    if (outcome === UNKNOWN) {
      await this.#faults?.settle();
      const resolved = this.#resolve(step, at, await this.#read(semaphores[0] ?? fail('no client')));
      if (resolved === undefined)
        found.push(`[copy] after ${describeStep(step)}, Redis shows neither the request run once nor not at all`);
      else this.trace.push(`${at}: ${describeStep(step)} → unknown outcome; Redis shows it ${resolved}`);
      expected = UNKNOWN;
    } else if (performed.retried !== undefined) {
      // A release of unknown outcome, sent again: the first may have run (the retry then finds
      // the permits gone) or not (the retry gives them back). Either way they are back, and the
      // holder was told when the first failed.
      expected = this.#model.apply(step, at);
      const holding = this.#model.holdings[this.#model.holdingIndex(performed.retried) ?? -1];
      if (holding !== undefined) holding.told = true;
      if (expected === 'done' && (outcome === 'done' || outcome === 'error:LockLostError')) expected = outcome;
    } else {
      expected = await this.#applyWithGiveBacks(semaphores, step, at, outcome);
    }
    // An injected step waits out its fault: a short lease it set may have ended meanwhile, and
    // time passes right after it, beyond every short lease.
    if (step.op === 'inject' && this.#leases.pending) {
      await this.#leases.pass();
      this.#model.apply({ op: 'pass' }, at);
      performed.note += ' (then time passed)';
    }
    const told = this.#holdings.map((holding) => holding.signal.aborted);
    const observed = { outcome, told, ...(await this.#read(semaphores[0] ?? fail('no client'))) };
    this.#adoptLateLandings(observed, at);
    this.trace.push(
      `${at}: ${describeStep(step)}${note}${performed.note} → ${outcome} (model ${expected}; Redis ${String(observed.stored)}, ${observed.members.length} in {name}:timeout)`,
    );
    const model = this.#model;
    found.push(
      ...judgeExpirableStep(
        {
          outcome: expected,
          exists: model.exists,
          available: model.available,
          limit: model.limit,
          members: this.#expectedMembers(),
          told: model.holdings.map((holding) => holding.told),
        },
        observed,
      ),
    );
    const excesses = judgeSemaphoreHistory(model.grants, model.limits);
    this.excesses = excesses.length;
    found.push(...excesses);
    return found.length === 0
      ? undefined
      : `model violated at step ${at}:\n  ${found.join('\n  ')}\ntrace:\n${this.trace.join('\n')}`;
  }

  /**
   * Applies `step` to the model; when Redis and the outcome show that the give-back of an
   * acquisition the model takes as never given back landed meanwhile, to the model with that
   * give-back too (before the step's own request, or after it).
   */
  async #applyWithGiveBacks(
    semaphores: readonly PermitExpirableSemaphore[],
    step: ExpirableStep,
    at: number,
    outcome: StepOutcome,
  ): Promise<StepOutcome> {
    const landings = this.#landings(at);
    if (landings.length === 0) return this.#model.apply(step, at);
    const state = await this.#read(semaphores[0] ?? fail('no client'));
    let first: [StepOutcome, ExpirableModel] | undefined;
    for (const landing of [undefined, ...landings]) {
      for (const order of landing === undefined ? ['none'] : ['before', 'after']) {
        const model = this.#model.clone();
        if (order === 'before') landing?.land(model, at);
        const expected = model.apply(step, at);
        if (order === 'after') landing?.land(model, at);
        first ??= [expected, model];
        if (expected !== outcome || !this.#shows(model, state)) continue;
        this.#model.adopt(model);
        if (landing !== undefined) this.trace.push(`${at}: ${landing.what} landed late`);
        return expected;
      }
    }
    const [expected, model] = first ?? fail('no model');
    this.#model.adopt(model);
    return expected;
  }

  /**
   * What may land at any time (see {@link #landings}) may also land between the reads of one
   * step: when Redis shows some of it landed, the model takes that too.
   */
  #adoptLateLandings(state: ExpirableState, at: number): void {
    if (this.#shows(this.#model, state)) return;
    for (const landed of subsets(this.#landings(at))) {
      const model = this.#model.clone();
      for (const landing of landed) landing.land(model, at);
      if (!this.#shows(model, state)) continue;
      this.#model.adopt(model);
      for (const landing of landed) this.trace.push(`${at}: ${landing.what} landed late`);
      return;
    }
  }

  /**
   * What was sent earlier and may still land, once, at any time: the give-back of an acquisition
   * the model takes as never given back (it runs in the background), and a `tryRelease(id)` of
   * unknown outcome that Redis showed not run (a release carries no deadline). Not those of step
   * `at` itself.
   */
  #landings(at: number): LateLanding[] {
    const starts = new Set(
      this.#model.orphans
        .filter((permit) => permit.state !== 'gone' && permit.start !== at)
        .map((permit) => permit.start),
    );
    const giveBacks = [...starts].map((started) => ({
      what: `the give-back of the acquisition at step ${started}`,
      land: (model: ExpirableModel, landedAt: number) =>
        model.giveBack(
          model.orphans.filter((permit) => permit.start === started).map((permit) => permit.id),
          landedAt,
        ),
    }));
    const releases = this.#lateReleases
      .filter(({ index, sentAt }) => sentAt !== at && this.#model.permits[index]?.state === 'held')
      .map(({ index, sentAt }) => ({
        what: `the release of unknown outcome at step ${sentAt}`,
        land: (model: ExpirableModel, landedAt: number) => model.releaseLate(index, landedAt),
      }));
    return [...giveBacks, ...releases];
  }

  // The model's permits in `{name}:timeout` as the driver shows them, and whether each one's lease ended.
  #expectedMembers(model = this.#model): { member: string; expired: boolean; short: boolean }[] {
    const known = model.permits.flatMap((permit, index) =>
      permit.state === 'gone'
        ? []
        : [{ member: storedMember(this.#ids[index] ?? ''), expired: permit.state === 'expired', short: permit.short }],
    );
    const orphans = model.orphans.flatMap((permit) =>
      permit.state === 'gone' ? [] : [{ member: permit.id, expired: permit.state === 'expired', short: permit.short }],
    );
    return [...known, ...orphans];
  }

  /**
   * After a change of unknown outcome: the model as if it ran once, or not at all (for an
   * acquisition also: it ran and was given back, or ran and was never given back), whichever
   * Redis shows (its key, `{name}:timeout`'s members and which of their leases are short);
   * `undefined` when it shows none of them.
   */
  #resolve(step: ExpirableStep, at: number, state: ExpirableState): string | undefined {
    const change = step.op === 'inject' ? step.step : step;
    const candidates: [string, ExpirableModel][] = [['not run', this.#model.clone()]];
    const ran = this.#model.clone();
    if (change.op === 'tryAcquire') {
      const given = this.#model.clone();
      given.reclaim();
      candidates.push(['run and given back', given]);
      const known = new Set(this.#expectedMembers().map(({ member }) => member));
      const taken = state.members.map(({ member }) => member).filter((member) => !known.has(member));
      if (taken.length === change.permits) {
        ran.orphan(taken, change.lease === 'short', at);
        candidates.push(['taken and never given back', ran]);
      }
    } else {
      const outcome = ran.apply(change, at);
      if (change.op === 'updateLeaseHeld') {
        // Its holder keeps the earlier of its old lease and the new one.
        const holding = ran.holdings[ran.holdingIndex(change.pick) ?? -1];
        const before = this.#model.holdings[this.#model.holdingIndex(change.pick) ?? -1];
        if (holding !== undefined && before !== undefined) holding.short = before.short || change.lease === 'short';
        const unchanged = candidates[0]?.[1].holdings[this.#model.holdingIndex(change.pick) ?? -1];
        if (unchanged !== undefined) unchanged.short = before?.short === true || change.lease === 'short';
      }
      if (!outcome.startsWith('error:')) candidates.push(['run once', ran]);
    }
    // What was sent earlier may have landed meanwhile.
    const landings = subsets(this.#landings(at)).filter((landed) => landed.length > 0);
    for (const [how, model] of [...candidates]) {
      for (const landed of landings) {
        const late = model.clone();
        for (const landing of landed) landing.land(late, at);
        candidates.push([`${how}, and ${landed.map(({ what }) => what).join(' and ')} landed late`, late]);
      }
    }
    // Another client's script (a watchdog renewal of the client outside the fault) may have
    // reclaimed permits whose lease ended while the request was cut off, as every script does first.
    for (const [how, model] of [...candidates]) {
      const reclaimed = model.clone();
      reclaimed.reclaim();
      candidates.push([`${how}, and expired permits were reclaimed meanwhile`, reclaimed]);
    }
    const shown = candidates.find(([, model]) => this.#shows(model, state));
    if (shown === undefined) return undefined;
    this.#model.adopt(shown[1]);
    const index = change.op === 'releaseId' ? this.#model.permitIndex(change.pick) : undefined;
    if (index !== undefined && shown[0].startsWith('not run')) this.#lateReleases.push({ index, sentAt: at });
    return shown[0];
  }

  // Whether Redis shows `model`'s state: its key, the members of `{name}:timeout`, and which held ones have a short lease.
  #shows(model: ExpirableModel, state: ExpirableState): boolean {
    if ((model.exists ? String(model.available) : null) !== state.stored) return false;
    const expected = this.#expectedMembers(model);
    if (
      JSON.stringify(expected.map(({ member }) => member).sort()) !==
      JSON.stringify(state.members.map(({ member }) => member).sort())
    )
      return false;
    return expected.every(({ member, expired, short }) => {
      const score = state.members.find((each) => each.member === member)?.score ?? 0;
      return expired || short === score <= state.readTo + SHORT_LEASE_BOUND_MS;
    });
  }

  // The semaphore's key and `{name}:timeout` in one script (a give-back landing between two reads
  // would show a state no history has), with the wall-clock times around the read.
  async #read(semaphore: PermitExpirableSemaphore): Promise<ExpirableState> {
    const readFrom = Date.now();
    const [stored, reply] = (await this.#backend.command(
      ['EVAL', READ_BOTH, 2, semaphore.name, semaphore.timeoutsKey],
      semaphore.name,
    )) as [string | null, string[]];
    const readTo = Date.now();
    const members: StoredPermit[] = [];
    for (let i = 0; i + 1 < reply.length; i += 2)
      members.push({ member: String(reply[i]), score: Number(reply[i + 1]) });
    return { stored, members, readFrom, readTo };
  }

  // Runs the step on the real semaphore and says what came of it, in the model's terms; `retried`:
  // the acquisition (pick) whose release of unknown outcome was sent again.
  async #perform(
    semaphores: readonly PermitExpirableSemaphore[],
    step: ExpirableStep,
  ): Promise<{ outcome: StepOutcome; note: string; retried?: number }> {
    if (step.op !== 'inject') return { outcome: await this.#outcomeOf(semaphores, step), note: '' };
    const faults = this.#faults;
    const proxied = semaphores.length - 1;
    const target = step.step;
    const byHolding = target.op === 'releaseHeld' || target.op === 'updateLeaseHeld';
    const reachesProxy = !byHolding || this.#takers[this.#holdingPick(target.pick) ?? -1] === proxied;
    if (faults === undefined || !faults.canInject || !reachesProxy)
      return { outcome: await this.#outcomeOf(semaphores, target), note: ' (not injected)' };
    const sentAt = performance.now();
    const injection = await faults.around(step.fault, () => this.#call(semaphores, target));
    const note = !injection.injected
      ? ' (no request to inject into)'
      : injection.late !== undefined
        ? ` (late copy: ${injection.late.replies.join(', ')})`
        : ` (cut, partitioned; ${injection.cut?.resent ?? 0} re-sent after)`;
    let { outcome } = injection;
    let retried: number | undefined;
    if (
      outcome.status === 'rejected' &&
      outcome.reason instanceof RedisUnavailableError &&
      target.op === 'releaseHeld'
    ) {
      outcome = await this.#releaseAgain(semaphores, target);
      retried = target.pick;
    }
    const result = outcome.status === 'fulfilled' ? outcome.value : outcomeOfError(outcome.reason);
    // A short lease the request may have set (its outcome known or not) must have ended before time is said to pass.
    if ('lease' in target && target.lease === 'short' && (result === UNKNOWN || setsShortLease(target, result)))
      this.#leases.started(sentAt, performance.now());
    return { outcome: result, note, ...(retried === undefined ? {} : { retried }) };
  }

  async #releaseAgain(
    semaphores: readonly PermitExpirableSemaphore[],
    step: MutatingExpirableStep,
  ): Promise<PromiseSettledResult<StepOutcome>> {
    let last: PromiseSettledResult<StepOutcome> = { status: 'rejected', reason: new Error('not tried') };
    for (let tries = 0; tries < RELEASE_TRIES; tries++) {
      [last] = await Promise.allSettled([this.#call(semaphores, step)]);
      if (last.status === 'fulfilled' || !(last.reason instanceof RedisUnavailableError)) return last;
      await new Promise((resolve) => setTimeout(resolve, RELEASE_PAUSE_MS));
    }
    return last;
  }

  async #outcomeOf(semaphores: readonly PermitExpirableSemaphore[], step: ExpirableStep): Promise<StepOutcome> {
    const sentAt = performance.now();
    try {
      const outcome = await this.#call(semaphores, step);
      if (setsShortLease(step, outcome)) this.#leases.started(sentAt, performance.now());
      return outcome;
    } catch (error) {
      const outcome = outcomeOfError(error);
      if (outcome === UNKNOWN && 'lease' in step && step.lease === 'short')
        this.#leases.started(sentAt, performance.now());
      return outcome;
    }
  }

  async #call(semaphores: readonly PermitExpirableSemaphore[], step: ExpirableStep): Promise<StepOutcome> {
    if (step.op === 'pass') {
      await this.#leases.pass();
      return 'done';
    }
    if (step.op === 'inject') return this.#call(semaphores, step.step);
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
        const held = await semaphore.tryAcquire(
          step.permits,
          step.lease === 'watchdog' ? {} : { leaseTime: leaseMs(step.lease) },
        );
        if (held === null) return 'null';
        this.#holdings.push(held);
        this.#takers.push(step.client);
        this.#ids.push(...held.ids);
        return `held:${held.permits}`;
      }
      default:
        return this.#onId(semaphore, step);
    }
  }

  #holdingPick(pick: number): number | undefined {
    return this.#holdings.length === 0 ? undefined : pick % this.#holdings.length;
  }

  // `release()` or `updateLeaseTime(ms)` of the acquisition the step picks (the permits read when there is none).
  async #onHolding(
    semaphores: readonly PermitExpirableSemaphore[],
    step: Extract<ExpirableStep, { op: 'releaseHeld' | 'updateLeaseHeld' }>,
  ): Promise<StepOutcome> {
    const holding = this.#holdings[this.#holdingPick(step.pick) ?? -1];
    if (holding === undefined) return `value:${await (semaphores[0] ?? fail('no client')).availablePermits()}`;
    if (step.op === 'releaseHeld') await holding.release();
    // Whatever keeps the permits: watchdog-kept ones become a fixed lease, as the model expects.
    else await holding.updateLeaseTime(leaseMs(step.lease), { stopWatchdog: true });
    return 'done';
  }

  // `tryRelease(id)` or `updateLeaseTime(id, ms)` of the permit id the step picks (the permits read when there is none).
  async #onId(
    semaphore: PermitExpirableSemaphore,
    step: Extract<ExpirableStep, { op: 'releaseId' | 'updateLeaseId' }>,
  ): Promise<StepOutcome> {
    const id = this.#ids.length === 0 ? undefined : this.#ids[step.pick % this.#ids.length];
    if (id === undefined) return `value:${await semaphore.availablePermits()}`;
    return String(
      step.op === 'releaseId'
        ? await semaphore.tryRelease(id)
        : await semaphore.updateLeaseTime(id, leaseMs(step.lease)),
    );
  }
}

// Every subset of `items`, the empty one first (there are only ever a few).
function subsets<T>(items: readonly T[]): T[][] {
  return items.reduce<T[][]>((all, item) => [...all, ...all.map((subset) => [...subset, item])], [[]]);
}

function leaseMs(lease: Exclude<LeaseChoice, 'watchdog'>): number {
  return lease === 'short' ? SHORT_LEASE_MS : LONG_LEASE_MS;
}

// Whether the step, as it came out, started a short lease that time must now pass beyond.
function setsShortLease(step: ExpirableStep, outcome: StepOutcome): boolean {
  if (!('lease' in step) || step.lease !== 'short') return false;
  return outcome.startsWith('held:') || outcome === 'done' || outcome === 'true';
}

// A call's error in the model's terms: an outcome not learned, or another error by name.
function outcomeOfError(error: unknown): StepOutcome {
  if (error instanceof RedisUnavailableError) return UNKNOWN;
  return `error:${error instanceof Error ? error.name : String(error)}`;
}

function fail(message: string): never {
  throw new Error(message);
}
