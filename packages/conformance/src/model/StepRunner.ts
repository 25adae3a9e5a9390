import { type AcquireOptions, type HeldLock, type LockClient } from '@deadbolt/core';
import type { Backend } from '../backends/index.js';
import { sleep } from '../timing.js';
import { checkExclusion, checkExtendExact, checkHeld, checkSignals, reconcile, type ExtendPromise } from './checks.js';
import { checkOverlap } from './history.js';
import { identityKey, type HoldRecord, type OwnerIdentity } from './HoldRecord.js';
import { judgeAcquire, judgeForceUnlock, judgeHoldCall, judgeIsLocked } from './judge.js';
import type { LockModel } from './LockModel.js';
import type { Half, ModelKind, ModelLocks } from './ModelKind.js';
import { observeLock } from './observe.js';
import { describeOutcome, outcomeOf, type Outcome, type OutcomeKind } from './outcomes.js';
import { planOwner, type OwnerPlan, type ScopeEntry } from './owners.js';
import { describeStep, type AcquireSpec, type Step } from './steps.js';
import { now } from './timing.js';
import { ModelViolationError, type ViolationLog } from './Violation.js';

/** Everything one model run drives: the kind, the backend, the clients and their locks over one name, and the model. */
export interface RunContext {
  readonly kind: ModelKind;
  readonly backend: Backend;
  readonly name: string;
  readonly clients: readonly LockClient[];
  readonly locks: readonly ModelLocks[];
  readonly model: LockModel;
  readonly log: ViolationLog;
  readonly trace: string[];
}

/**
 * Runs steps on the real locks and on the model side by side. After every step (also inside a
 * `withLock` body) it reads the lock from Redis and checks every invariant; the first step that
 * breaks one ends the run with a {@link ModelViolationError}.
 */
export class StepRunner {
  readonly #ctx: RunContext;
  /** Steps run, nested ones included. */
  steps = 0;

  constructor(ctx: RunContext) {
    this.#ctx = ctx;
  }

  /** Runs `steps` in order at the top level (no `withLock` scope). */
  async runAll(steps: readonly Step[]): Promise<void> {
    for (const step of steps) await this.#step(step, [], 0);
  }

  async #step(step: Step, scope: readonly ScopeEntry[], depth: number): Promise<void> {
    this.steps += 1;
    const extendPromises: ExtendPromise[] = [];
    // A kind without halves ignores a step's half: leave it out of the trace.
    const what = this.#ctx.kind.readWrite
      ? describeStep(step)
      : describeStep(step).replace(/^(c\d+)\.(read|write)\./, '$1.');
    const note = (text: string) => this.#ctx.trace.push(`${'  '.repeat(depth)}${this.steps}. ${what} → ${text}`);
    switch (step.kind) {
      case 'acquire':
        note(await this.#acquire(step, step.call, scope));
        break;
      case 'withLock':
        await this.#withLock(step, scope, depth, note);
        break;
      case 'release':
        note(await this.#release(step.hold));
        break;
      case 'extend':
        note(await this.#extend(step.hold, step.ms, extendPromises));
        break;
      case 'forceUnlock':
        note(await this.#forceUnlock(step.client, step));
        break;
      case 'sleep':
        await sleep(step.ms);
        note('slept');
        break;
      case 'query':
        note(await this.#query(step, scope));
        break;
    }
    await this.#checkpoint(extendPromises);
  }

  /** Reads Redis and checks every invariant; throws at the first step that broke one. */
  async #checkpoint(extendPromises: readonly ExtendPromise[]): Promise<void> {
    const { backend, name, kind, model, log, trace } = this.#ctx;
    const observed = await observeLock(backend, name, kind.readWrite);
    checkExclusion(observed, kind.readWrite, log);
    reconcile(model, observed, log);
    checkHeld(model, observed, log);
    // Let lease timers that are due fire first: a loaded event loop may answer the read before them.
    await sleep(0);
    checkSignals(model, log);
    for (const promise of extendPromises)
      checkExtendExact(promise, observed, kind.readWrite, log, model.timing.tolerance);
    const violations = log.drain();
    if (violations.length > 0) throw new ModelViolationError(violations, trace);
  }

  #prepare(spec: AcquireSpec, scope: readonly ScopeEntry[], waits: boolean) {
    const { clients, locks, kind, model } = this.#ctx;
    const plan = planOwner(spec.owner, spec.client % clients.length, scope, model);
    const half = kind.halfOf(spec.half);
    const lock = locks[plan.client]!.lock(spec.half);
    // Waiting with no wait time on a lock someone else may hold would wait for ever.
    let waitTime = spec.waitTime;
    const { certain, uncertain } = model.blockers(plan.kind === 'known' ? plan.identity : undefined, half, now());
    if (waitTime === undefined && waits && certain.length + uncertain.length > 0)
      waitTime = Math.max(...model.timing.waits);
    const options: AcquireOptions = {
      ...(plan.option === undefined ? {} : { owner: plan.option }),
      ...(spec.leaseTime === undefined ? {} : { leaseTime: spec.leaseTime }),
      ...(waitTime === undefined ? {} : { waitTime }),
    };
    return { plan, half, lock, options };
  }

  async #acquire(spec: AcquireSpec, call: 'acquire' | 'tryAcquire', scope: readonly ScopeEntry[]): Promise<string> {
    const { plan, half, lock, options } = this.#prepare(spec, scope, call === 'acquire');
    const sentAt = now();
    const outcome = await outcomeOf<HeldLock>(
      () => (call === 'acquire' ? lock.acquire(options) : lock.tryAcquire(options)),
      'held',
    );
    const resolvedAt = now();
    const record = this.#judgeAcquired(plan, half, spec.leaseTime, outcome, sentAt, resolvedAt);
    return record ? `${describeOutcome(outcome)} as ${record.describe()}` : describeOutcome(outcome);
  }

  /**
   * Checks an acquisition's outcome against the model and, when it took the lock, records the hold
   * (and what its success says about others' holds that may have ended).
   */
  #judgeAcquired(
    plan: OwnerPlan,
    half: Half,
    lease: number | undefined,
    outcome: Outcome<HeldLock>,
    sentAt: number,
    resolvedAt: number,
  ): HoldRecord | undefined {
    const { model, log } = this.#ctx;
    const judged = judgeAcquire(model, plan, half, resolvedAt);
    if (!judged.allowed.has(outcome.kind)) {
      const expected = [...judged.allowed].join(' or ');
      if (plan.kind === 'refuse')
        log.add('forged-owner-accepted', `${plan.why}, yet it was not refused: ${describeOutcome(outcome)}`);
      else if (plan.kind === 'known' && plan.option?.startsWith('#') && outcome.kind === 'invalid')
        log.add('reuse-refused', `passing back '${plan.option}' while a hold with it stands was refused`);
      else if (outcome.kind === 'held' && judged.certain.length > 0)
        log.add(
          'exclusion',
          `acquired ${half} while ${judged.certain.map((hold) => hold.describe()).join('; ')} certainly held it`,
        );
      else log.add('outcome', `acquire ${half} ended ${describeOutcome(outcome)}, expected ${expected}`);
    }
    if (outcome.kind !== 'held') return undefined;
    this.#checkCollision(plan, half, outcome.value);
    // Taken: whoever else may have held it had ended. (The owner's own read holds stay: a write
    // re-entry keeps them, and they are gone only if the lock expired, which reconciling sees.)
    model.lose(judged.uncertain, resolvedAt);
    return this.#record(plan, half, lease, outcome.value, sentAt, resolvedAt);
  }

  /** Distinct owners must never share a Redis field (a named '1' joining a generated '1'). */
  #checkCollision(plan: OwnerPlan, half: Half, held: HeldLock): void {
    const { model, log, kind, clients } = this.#ctx;
    const identity: OwnerIdentity =
      plan.kind === 'fresh'
        ? { client: plan.client, owner: held.owner, generated: true }
        : plan.kind === 'known'
          ? plan.identity
          : { client: plan.client, owner: plan.option, generated: false };
    const field = kind.field(clients[plan.client]!.id, held.owner, half);
    const key = identityKey(identity);
    const others = model.holds.filter(
      (hold) => hold.counted && hold.field === field && identityKey(hold.identity) !== key,
    );
    const who = `${identity.generated ? 'generated' : 'named'} '${identity.owner}'`;
    log.expect(
      others.length === 0,
      'owner-collision',
      () => `${half} hold as ${who} joined field ${field} of ${others.map((hold) => hold.describe()).join('; ')}`,
    );
  }

  #record(
    plan: OwnerPlan,
    half: Half,
    lease: number | undefined,
    held: HeldLock,
    sentAt: number,
    resolvedAt: number,
  ): HoldRecord {
    const { model, log, kind, clients } = this.#ctx;
    let identity: OwnerIdentity;
    if (plan.kind === 'fresh') {
      identity = { client: plan.client, owner: held.owner, generated: true };
      log.expect(
        /^#\d+$/.test(held.owner),
        'generated-owner',
        () => `generated owner id '${held.owner}' is not of the form #<n>`,
      );
      const seen = model.see(plan.client, held.owner);
      log.expect(
        !seen,
        'generated-owner',
        () => `generated owner id '${held.owner}' was already an owner on c${plan.client}`,
      );
    } else {
      identity = plan.kind === 'known' ? plan.identity : { client: plan.client, owner: plan.option, generated: false };
      log.expect(
        held.owner === identity.owner,
        'outcome',
        () => `acquired as owner '${held.owner}', expected '${identity.owner}'`,
      );
      model.see(plan.client, identity.owner);
    }
    const field = kind.field(clients[plan.client]!.id, held.owner, half);
    const record = model.add({ held, identity, half, field, sentAt, resolvedAt, lease });
    const problem = kind.checkHeld?.(
      held,
      model.holds.map((hold) => hold.held),
    );
    if (problem) log.add('outcome', problem);
    checkOverlap(record, model.holds, log);
    return record;
  }

  async #withLock(
    step: Extract<Step, { kind: 'withLock' }>,
    scope: readonly ScopeEntry[],
    depth: number,
    note: (text: string) => void,
  ): Promise<void> {
    const { plan, half, lock, options } = this.#prepare(step, scope, true);
    const sentAt = now();
    let record: HoldRecord | undefined;
    let bodyDoneAt = 0;
    const outcome = await outcomeOf(
      () =>
        lock.withLock(async (_signal, held) => {
          record = this.#judgeAcquired(plan, half, step.leaseTime, { kind: 'held', value: held }, sentAt, now());
          note(`entered as ${record?.describe() ?? 'nobody'}`);
          await this.#checkpoint([]);
          const inner: ScopeEntry = { client: record!.identity.client, identity: record!.identity };
          for (const bodyStep of step.body) await this.#step(bodyStep, [...scope, inner], depth + 1);
          bodyDoneAt = now();
          return 'done';
        }, options),
      'ok',
    );
    if (!record) {
      const failed: Outcome<HeldLock> =
        'error' in outcome
          ? outcome
          : { kind: 'error', error: new Error('withLock returned without entering its callback') };
      this.#judgeAcquired(plan, half, step.leaseTime, failed, sentAt, now());
      note(`not entered: ${describeOutcome(outcome)}`);
      return;
    }
    // The callback returned: withLock released the hold (or failed to). A hold released inside the
    // body is refused as any second release is; a hold lost meanwhile ends withLock with the loss.
    const released: Outcome<unknown> = outcome.kind === 'ok' ? { kind: 'ok', value: undefined } : outcome;
    const doneAt = now();
    const allowed = new Set(this.#holdCallOutcomes(record, doneAt));
    if (!record.released && record.held.signal.aborted) allowed.add('lost');
    note(`left: ${this.#judgeRelease(record, released, bodyDoneAt, doneAt, allowed)}`);
  }

  /** A release may come after the hold's signal aborted (its lease ended): that alone does not decide its outcome. */
  #judgeRelease(
    record: HoldRecord,
    outcome: Outcome<unknown>,
    calledAt: number,
    doneAt: number,
    allowed: ReadonlySet<OutcomeKind> = this.#holdCallOutcomes(record, doneAt),
  ): string {
    this.#expectOutcome(allowed, outcome, `release of ${record.describe()}`);
    if (!record.released) record.releaseCalledAt = calledAt;
    const wasReleased = record.released;
    record.released = true;
    if (!wasReleased && releasedInRedis(outcome)) record.counted = false;
    if (!wasReleased && outcome.kind === 'lost') record.mayBeReleased = true;
    return describeOutcome(outcome);
  }

  // A release or an extend is refused (`notHeld`) once released; it rejects with the loss (`lost`)
  // where a call on the hold is refused because the hold is gone.
  #holdCallOutcomes(record: HoldRecord, at: number, abortedBefore = false): ReadonlySet<OutcomeKind> {
    if (record.released) return new Set(['notHeld']);
    return new Set([...judgeHoldCall(this.#ctx.model, record, at, abortedBefore)].map(lossOnExit));
  }

  #expectOutcome(allowed: ReadonlySet<OutcomeKind>, outcome: Outcome<unknown>, what: string): void {
    this.#ctx.log.expect(
      allowed.has(outcome.kind),
      'outcome',
      () => `${what} ended ${describeOutcome(outcome)}, expected ${[...allowed].join(' or ')}`,
    );
  }

  async #release(index: number): Promise<string> {
    const record = this.#ctx.model.hold(index);
    if (!record) return 'no hold yet';
    const calledAt = now();
    const outcome = await outcomeOf(() => record.held.release(), 'ok');
    return `${this.#judgeRelease(record, outcome, calledAt, now())} (${record.describe()})`;
  }

  async #extend(index: number, ms: number, promises: ExtendPromise[]): Promise<string> {
    const { model } = this.#ctx;
    const record = model.hold(index);
    if (!record) return 'no hold yet';
    const abortedBefore = record.held.signal.aborted;
    const sentAt = now();
    // Whatever keeps the hold: a watchdog hold becomes a fixed lease, as the model expects.
    const outcome = await outcomeOf(() => record.held.extend(ms, { stopWatchdog: true }), 'ok');
    const doneAt = now();
    this.#expectOutcome(
      this.#holdCallOutcomes(record, doneAt, abortedBefore),
      outcome,
      `extend(${ms}) of ${record.describe()}`,
    );
    if (outcome.kind === 'ok') {
      record.extended(ms, sentAt, doneAt, model.timing.signalSlack);
      promises.push({ hold: record, ms });
    }
    return `${describeOutcome(outcome)} (${record.describe()})`;
  }

  async #forceUnlock(client: number, step: Extract<Step, { kind: 'forceUnlock' }>): Promise<string> {
    const { clients, locks, kind, model, log } = this.#ctx;
    const half = kind.halfOf(step.half);
    const outcome = await outcomeOf(() => locks[client % clients.length]!.lock(step.half).forceUnlock(), 'ok');
    const doneAt = now();
    const { canDelete, mustDelete } = judgeForceUnlock(model, half, kind.readWrite, doneAt);
    if (outcome.kind !== 'ok') {
      log.add('outcome', `forceUnlock ended ${describeOutcome(outcome)}`);
      return describeOutcome(outcome);
    }
    const deleted = outcome.value;
    log.expect(
      deleted ? canDelete : !mustDelete,
      'outcome',
      () => `forceUnlock of the ${half} lock returned ${deleted}`,
    );
    if (deleted) {
      for (const hold of model.holds) {
        if (!hold.counted) continue;
        if (!hold.released) hold.forcedAt = doneAt;
        hold.lost(doneAt, model.renewalGrace);
      }
    }
    return String(deleted);
  }

  async #query(step: Extract<Step, { kind: 'query' }>, scope: readonly ScopeEntry[]): Promise<string> {
    const { clients, locks, kind, model, log } = this.#ctx;
    const half = kind.halfOf(step.half);
    if (step.query === 'isLocked') {
      const lock = locks[step.client % clients.length]!.lock(step.half);
      const outcome = await outcomeOf(() => lock.isLocked(), 'ok');
      const { canBeTrue, canBeFalse } = judgeIsLocked(model, half, now());
      const ok = outcome.kind === 'ok' && (outcome.value ? canBeTrue : canBeFalse);
      log.expect(
        ok,
        'outcome',
        () =>
          `isLocked of the ${half} lock answered ${outcome.kind === 'ok' ? String(outcome.value) : describeOutcome(outcome)}`,
      );
      return outcome.kind === 'ok' ? String(outcome.value) : describeOutcome(outcome);
    }
    const plan = planOwner(step.owner, step.client % clients.length, scope, model);
    const lock = locks[plan.client]!.lock(step.half);
    const call =
      step.query === 'holdCount' ? () => lock.holdCount(plan.option) : () => lock.isHeldBy(plan.option).then(Number);
    const outcome = await outcomeOf(call, 'ok');
    const owner = plan.kind === 'fresh' ? undefined : plan.kind === 'known' ? plan.identity.owner : plan.option;
    const counts =
      owner === undefined
        ? new Set<number>()
        : model.possibleCounts(kind.field(clients[plan.client]!.id, owner, half), now());
    const answers = step.query === 'holdCount' ? counts : new Set([...counts].map((count) => Number(count > 0)));
    const allowed: OutcomeKind[] =
      plan.kind === 'fresh' ? ['invalid'] : plan.kind === 'refuse' ? ['invalid', 'ok'] : ['ok'];
    const ok = allowed.includes(outcome.kind) && (outcome.kind !== 'ok' || answers.has(outcome.value));
    log.expect(
      ok,
      'outcome',
      () =>
        `${step.query}(${plan.option ?? ''}) answered ${outcome.kind === 'ok' ? String(outcome.value) : describeOutcome(outcome)}, expected ${[...answers].join(' or ') || 'InvalidArgumentError'}`,
    );
    return outcome.kind === 'ok' ? String(outcome.value) : describeOutcome(outcome);
  }
}

// Whether the release took the hold out of Redis: it did when it resolved. One that rejected with
// the loss may have found it gone, or taken out what was left of it (a hold whose own lease ended
// while its owner's other holds kept the lock): reconciling with Redis's count tells (see
// `HoldRecord.mayBeReleased`).
function releasedInRedis(outcome: Outcome<unknown>): boolean {
  return outcome.kind === 'ok';
}

// A release that finds its hold gone, or of a hold lost before, rejects with the loss (a LockLostError).
function lossOnExit(kind: OutcomeKind): OutcomeKind {
  return kind === 'notHeld' ? 'lost' : kind;
}
