import { LockClient } from '@deadbolt/core';
import type { HeldLockGroup } from '@deadbolt/multilock';
import fc from 'fast-check';
import type { Backend, ConnectedExecutor } from '../backends/index.js';
import { sleep } from '../timing.js';
import type { GroupKind, ModelGroup } from './groupKinds.js';
import { GroupHold } from './GroupHold.js';
import { describeOutcome, outcomeOf, type OutcomeKind } from './outcomes.js';
import { checkParameters, type ModelBudget, type ModelReport } from './runModel.js';
import { modelTiming, now, type ModelTiming } from './timing.js';
import { ModelViolationError, ViolationLog, type ViolationCategory } from './Violation.js';

/** One step of a group model run: owners are generated, named (`g1`, `g2`: per user) or a held group's passed back. */
export type GroupStep =
  | {
      readonly kind: 'acquire';
      readonly user: number;
      readonly call: 'acquire' | 'tryAcquire';
      readonly owner: string | number | undefined;
      readonly leaseTime: number | undefined;
      readonly waitTime: number | undefined;
    }
  | { readonly kind: 'release'; readonly hold: number }
  | { readonly kind: 'extend'; readonly hold: number; readonly ms: number }
  | { readonly kind: 'sleep'; readonly ms: number };

function groupStep(users: number, timing: ModelTiming): fc.Arbitrary<GroupStep> {
  const hold = fc.nat({ max: 50 });
  const owner = fc.oneof(
    { weight: 4, arbitrary: fc.constant(undefined) },
    { weight: 3, arbitrary: fc.constantFrom('g1', 'g2') },
    { weight: 2, arbitrary: hold },
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fc
        .record({
          user: fc.integer({ min: 0, max: users - 1 }),
          call: fc.constantFrom<'acquire' | 'tryAcquire'>('acquire', 'tryAcquire'),
          owner,
          leaseTime: fc.option(fc.constantFrom(...timing.leases.filter((lease) => lease >= 300)), {
            nil: undefined,
            freq: 3,
          }),
          waitTime: fc.option(fc.constantFrom(...timing.waits), { nil: undefined, freq: 2 }),
        })
        .map((step): GroupStep => ({ kind: 'acquire', ...step })),
    },
    { weight: 4, arbitrary: hold.map((index): GroupStep => ({ kind: 'release', hold: index })) },
    {
      weight: 1,
      arbitrary: fc
        .record({ hold, ms: fc.constantFrom(...timing.extends) })
        .map((step): GroupStep => ({ kind: 'extend', ...step })),
    },
    { weight: 2, arbitrary: fc.constantFrom(...timing.sleeps).map((ms): GroupStep => ({ kind: 'sleep', ms })) },
  );
}

interface User {
  readonly group: ModelGroup;
  readonly memberNames: readonly string[];
  readonly needed: number;
}

/**
 * Runs group steps on real groups and a small model: exclusion between distinct owners (in
 * Redis, one owner field per member lock; in the hold-interval history, no overlap), every live
 * held group really held (all members of a MultiLock, a quorum of a RedLock), acquisitions taken
 * when nobody else may hold the group and refused while someone certainly does, and signals that
 * abort when a fixed lease ends.
 */
class GroupRunner {
  readonly holds: GroupHold[] = [];
  steps = 0;
  readonly #trace: string[] = [];

  constructor(
    readonly backend: Backend,
    readonly users: readonly User[],
    readonly timing: ModelTiming,
    readonly log: ViolationLog,
  ) {}

  async run(sequence: readonly GroupStep[]): Promise<void> {
    for (const step of sequence) {
      this.steps += 1;
      this.#trace.push(`${this.steps}. ${JSON.stringify(step)} → ${await this.#step(step)}`);
      await this.#check();
    }
  }

  #hold(index: number): GroupHold | undefined {
    return this.holds.length === 0 ? undefined : this.holds[index % this.holds.length];
  }

  async #step(step: GroupStep): Promise<string> {
    const tolerance = this.timing.tolerance;
    switch (step.kind) {
      case 'sleep':
        await sleep(step.ms);
        return 'slept';
      case 'acquire': {
        const reused = typeof step.owner === 'number' ? this.#hold(step.owner) : undefined;
        const user = reused ? reused.user : step.user % this.users.length;
        const owner = reused ? reused.held.owner : typeof step.owner === 'string' ? step.owner : undefined;
        const identity = owner === undefined ? undefined : `${user}|${owner}`;
        const others = () => this.holds.filter((hold) => hold.present && hold.identity !== identity);
        const waitTime =
          step.waitTime ??
          (step.call === 'acquire' && others().length > 0 ? Math.max(...this.timing.waits) : undefined);
        const options = {
          ...(owner === undefined ? {} : { owner }),
          ...(step.leaseTime === undefined ? {} : { leaseTime: step.leaseTime }),
          ...(waitTime === undefined ? {} : { waitTime }),
        };
        const group = this.users[user]!.group;
        const sentAt = now();
        const outcome = await outcomeOf<HeldLockGroup>(
          () => (step.call === 'acquire' ? group.acquire(options) : group.tryAcquire(options)),
          'held',
        );
        const resolvedAt = now();
        const blockers = others();
        const certain = blockers.filter((hold) => hold.live && hold.believedEnd > resolvedAt + tolerance);
        // A generated owner passed back after its holds ended may be refused.
        const allowed = new Set<OutcomeKind>(
          certain.length > 0 ? ['null'] : blockers.length > 0 ? ['held', 'null'] : ['held'],
        );
        if (reused && !reused.live) allowed.add('invalid');
        this.log.expect(
          allowed.has(outcome.kind),
          outcome.kind === 'held' ? 'exclusion' : 'outcome',
          () =>
            `group acquire ended ${describeOutcome(outcome)}, expected ${[...allowed].join(' or ')}; others: ${blockers.map((hold) => hold.describe()).join('; ') || 'none'}`,
        );
        if (outcome.kind !== 'held') return describeOutcome(outcome);
        for (const blocker of blockers) blocker.present = false;
        const record = new GroupHold({
          index: this.holds.length,
          held: outcome.value,
          user,
          sentAt,
          resolvedAt,
          lease: step.leaseTime,
          signalSlack: this.timing.signalSlack,
        });
        if (owner !== undefined)
          this.log.expect(
            outcome.value.owner === owner,
            'outcome',
            () => `group acquired as '${outcome.value.owner}', asked for '${owner}'`,
          );
        for (const other of this.holds) {
          if (other.identity !== record.identity && other.intervalEnd > resolvedAt)
            this.log.add('overlap', `${record.describe()} began while ${other.describe()} was its holder's`);
        }
        this.holds.push(record);
        return `held as ${record.describe()}`;
      }
      case 'release': {
        const hold = this.#hold(step.hold);
        if (!hold) return 'no hold yet';
        const calledAt = now();
        const outcome = await outcomeOf(() => hold.held.release(), 'ok');
        const certain = hold.live && hold.believedEnd > now() + tolerance;
        const ok = hold.released
          ? outcome.kind === 'notHeld'
          : certain
            ? outcome.kind === 'ok'
            : outcome.kind !== 'held';
        this.log.expect(ok, 'outcome', () => `release of ${hold.describe()} ended ${describeOutcome(outcome)}`);
        if (!hold.released) hold.releaseCalledAt = calledAt;
        if (outcome.kind === 'ok') hold.present = false;
        hold.released = true;
        return describeOutcome(outcome);
      }
      case 'extend': {
        const hold = this.#hold(step.hold);
        if (!hold) return 'no hold yet';
        const before = hold.live && !hold.held.signal.aborted;
        const sentAt = now();
        const outcome = await outcomeOf(() => hold.held.extend(step.ms, { stopWatchdog: true }), 'ok');
        this.log.expect(before || outcome.kind !== 'ok', 'outcome', () => `extend of ${hold.describe()} succeeded`);
        if (outcome.kind === 'ok') {
          hold.believedEnd = sentAt + step.ms;
          hold.abortDeadline = now() + step.ms + this.timing.signalSlack;
        }
        return describeOutcome(outcome);
      }
    }
  }

  async #check(): Promise<void> {
    // Let lease timers that are due fire before the signals are judged.
    await sleep(0);
    const names = [...new Set(this.users.flatMap((user) => user.memberNames))];
    const fields = new Map<string, string[]>();
    const at = now();
    for (const name of names) {
      const reply = await this.backend.command(['HGETALL', name], name);
      const flat = Array.isArray(reply) ? reply.map(String) : [];
      const owners = flat.filter((_, index) => index % 2 === 0);
      fields.set(name, owners);
      this.log.expect(
        owners.length <= 1,
        'exclusion',
        () => `member ${name} has ${owners.length} owner fields: ${owners.join(', ')}`,
      );
    }
    for (const hold of this.holds) {
      if (!hold.released && hold.abortedAt === undefined && now() > hold.abortDeadline)
        this.log.add('signal', `${hold.describe()}: lease ended, signal not aborted`);
      if (!hold.live || hold.believedEnd <= at + this.timing.tolerance) continue;
      const user = this.users[hold.user]!;
      const heldMembers = hold.held.members.filter((member) => {
        const lock = user.group.locks.find((candidate) => candidate.name === member.name);
        return lock !== undefined && (fields.get(member.name) ?? []).includes(`${lock.client.id}:${member.owner}`);
      });
      this.log.expect(
        heldMembers.length >= user.needed,
        'held',
        () =>
          `${hold.describe()}: signal not aborted, but only ${heldMembers.length} of ${user.needed} needed members are held in Redis`,
      );
    }
    const violations = this.log.drain();
    if (violations.length > 0) throw new ModelViolationError(violations, this.#trace);
  }
}

let runCounter = 0;

/** Model-checks one lock group kind on one backend (see {@link checkModel} for the single kinds). */
export async function checkGroupModel(
  kind: GroupKind,
  backend: Backend,
  budget: ModelBudget,
  timing: ModelTiming = modelTiming(),
): Promise<ModelReport> {
  const started = performance.now();
  let runs = 0;
  let steps = 0;
  const property = fc.asyncProperty(
    fc.integer({ min: 2, max: 3 }),
    fc.array(groupStep(3, timing), { minLength: budget.minSteps, maxLength: budget.maxSteps }),
    async (userCount, sequence) => {
      const name = `model:${kind.name}:${process.pid}:${++runCounter}`;
      const connections: ConnectedExecutor[] = [];
      const clients: LockClient[] = [];
      const users: User[] = [];
      let runner: GroupRunner | undefined;
      try {
        for (let u = 0; u < userCount; u++) {
          const own: LockClient[] = [];
          for (let c = 0; c < kind.clientsPerUser; c++) {
            const connected = await backend.connect();
            connections.push(connected);
            own.push(
              new LockClient(connected.executor, {
                watchdogTimeout: timing.watchdogTimeout,
                commandTimeout: timing.commandTimeout,
              }),
            );
          }
          clients.push(...own);
          users.push(kind.build(own, name));
        }
        runner = new GroupRunner(backend, users, timing, new ViolationLog(budget.ignore ?? []));
        await runner.run(sequence);
      } finally {
        runs += 1;
        steps += runner?.steps ?? 0;
        for (const hold of runner?.holds ?? []) if (!hold.released) await hold.held.release().catch(() => undefined);
        await Promise.allSettled(clients.map((client) => client.close()));
        await Promise.allSettled(connections.map((connected) => connected.close()));
      }
    },
  );
  const details = await fc.check(property, checkParameters(budget));
  const report = {
    kind: kind.name,
    backend: backend.name,
    seed: details.seed,
    runs,
    steps,
    overlaps: 0,
    millis: Math.round(performance.now() - started),
  };
  // Interrupted by the soak's clock before any failure: not a failure.
  if (!details.failed || details.counterexample === null) return report;
  const path = details.counterexamplePath ?? '';
  const error = details.errorInstance;
  const categories: ViolationCategory[] =
    error instanceof ModelViolationError ? [...new Set(error.violations.map((violation) => violation.category))] : [];
  const replay = `FC_SEED=${details.seed} FC_PATH=${path} MODEL_KINDS=${kind.name} DEADBOLT_BACKENDS=${backend.name}`;
  return {
    ...report,
    failure: { path, message: error instanceof Error ? error.message : String(error), categories, replay },
  };
}
