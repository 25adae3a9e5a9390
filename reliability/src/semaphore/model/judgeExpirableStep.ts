import type { StepOutcome } from './SemaphoreModel.js';

/** A member of `{name}:timeout` as Redis showed it: the permit id's bytes as the driver decoded them, and its lease end. */
export interface StoredPermit {
  readonly member: string;
  readonly score: number;
}

/** What the real `PermitExpirableSemaphore` showed after a step. */
export interface ObservedExpirableStep {
  readonly outcome: StepOutcome;
  /** The semaphore's key (`GET`): `null` when missing. */
  readonly stored: string | null;
  /** `{name}:timeout` (`ZRANGE … WITHSCORES`), read between the wall-clock times `readFrom` and `readTo`. */
  readonly members: readonly StoredPermit[];
  readonly readFrom: number;
  readonly readTo: number;
  /** Whether each acquisition's signal had aborted, in taking order. */
  readonly told: readonly boolean[];
}

/** What the model holds after the same step. */
export interface ExpectedExpirableStep {
  readonly outcome: StepOutcome;
  readonly exists: boolean;
  readonly available: number;
  /** The permits the semaphore was given. */
  readonly limit: number;
  /** The permits in `{name}:timeout`, as the driver decodes their ids, and whether each one's lease ended. */
  readonly members: readonly { readonly member: string; readonly expired: boolean }[];
  /** Whether each acquisition was told its permits are lost. */
  readonly told: readonly boolean[];
}

/**
 * The invariants one step broke, each as a line naming it; empty when it kept them all.
 * `outcome`: the call's outcome differs from the model's; `state`: Redis's key differs from the
 * model's; `members`: `{name}:timeout` holds other permits than the model's; `lease`: a permit
 * whose lease the model says ended has a lease end after the read, or one it says runs has one
 * before; `count`: the free permits plus those in `{name}:timeout` do not add up to the permits
 * given; `told`: an acquisition's signal aborted where the model's did not, or the other way.
 */
export function judgeExpirableStep(expected: ExpectedExpirableStep, observed: ObservedExpirableStep): string[] {
  const found: string[] = [];
  if (observed.outcome !== expected.outcome)
    found.push(`[outcome] got ${observed.outcome}, the model says ${expected.outcome}`);
  const stored = expected.exists ? String(expected.available) : null;
  if (observed.stored !== stored)
    found.push(`[state] Redis holds ${String(observed.stored)}, the model ${String(stored)}`);
  const real = observed.members.map(({ member }) => member).sort();
  const model = expected.members.map(({ member }) => member).sort();
  if (JSON.stringify(real) !== JSON.stringify(model))
    found.push(`[members] {name}:timeout holds ${real.length} permits, not the model's ${model.length} (or others)`);
  for (const { member, expired } of expected.members) {
    const score = observed.members.find((each) => each.member === member)?.score;
    if (score === undefined) continue;
    if (expired && score > observed.readTo)
      found.push(`[lease] a permit whose lease ended has its lease end at ${score}, after ${observed.readTo}`);
    if (!expired && score <= observed.readFrom)
      found.push(`[lease] a permit the model holds has its lease end at ${score}, by ${observed.readFrom}`);
  }
  const free = Number(observed.stored ?? 0);
  if (free + observed.members.length !== expected.limit) {
    found.push(
      `[count] Redis's ${free} free + ${observed.members.length} in {name}:timeout ≠ the ${expected.limit} permits given`,
    );
  }
  const told = (flags: readonly boolean[]) =>
    flags.map((flag, index) => (flag ? index : -1)).filter((index) => index >= 0);
  if (JSON.stringify(told(observed.told)) !== JSON.stringify(told(expected.told))) {
    found.push(
      `[told] acquisitions told ${JSON.stringify(told(observed.told))}, the model's ${JSON.stringify(told(expected.told))}`,
    );
  }
  return found;
}

/** A permit id (hex) as a driver decodes the 16 bytes `{name}:timeout` holds for it (UTF-8, invalid bytes replaced). */
export function storedMember(permitId: string): string {
  return Buffer.from(permitId, 'hex').toString('utf8');
}
