import type { LatchOutcome } from './LatchModel.js';

/** What the real latch showed after a step. */
export interface ObservedLatchStep {
  readonly outcome: LatchOutcome;
  /** The latch's key (`GET`): `null` when it has no count. */
  readonly stored: string | null;
  /** Background waits that resolved `true` since the last step, with the step each began at. */
  readonly opened: readonly number[];
  /** Late copies of the step's request Redis answered instead of refusing them, as their replies. */
  readonly answeredLate: readonly string[];
}

/** What the model holds after the same step. */
export interface ExpectedLatchStep {
  readonly outcome: LatchOutcome;
  readonly stored: string | null;
  /** The first step since which the latch was open at some step: a wait begun before never resolves `true`. */
  readonly openSince: (step: number) => boolean;
}

/** What a latch seen open too early looks like: one line each, and how many. */
export interface LatchJudgement {
  readonly found: string[];
  /** Observations of the latch open (its key gone or at zero, a read of 0, an `await` that returned `true`) while the model's count was above zero. */
  readonly openedEarly: number;
}

/**
 * The invariants one step broke, each as a line naming it. `outcome`: the call's outcome differs
 * from the model's; `state`: Redis's key differs from the model's (a count-down counted twice, a
 * count set by a late copy); `early`: the latch was seen open while the model's count was above
 * zero (counted in `openedEarly`), by Redis's key, by the step's outcome or by a background wait
 * that resolved `true` without the latch having been open since it began; `late`: a late copy of
 * a change was answered instead of refused past its deadline.
 */
export function judgeLatchStep(expected: ExpectedLatchStep, observed: ObservedLatchStep): LatchJudgement {
  const found: string[] = [];
  let openedEarly = 0;
  const modelOpen = expected.stored === null || Number(expected.stored) <= 0;
  if (observed.outcome !== expected.outcome) {
    found.push(`[outcome] got ${observed.outcome}, the model says ${expected.outcome}`);
    if (
      !modelOpen &&
      (observed.outcome === 'true' || observed.outcome === 'value:0') &&
      (expected.outcome === 'false' || expected.outcome.startsWith('value:'))
    )
      openedEarly++;
  }
  if (observed.stored !== expected.stored) {
    found.push(`[state] Redis holds ${String(observed.stored)}, the model ${String(expected.stored)}`);
    if (!modelOpen && (observed.stored === null || Number(observed.stored) <= 0)) {
      found.push(`[early] the latch is open in Redis while the model's count is ${String(expected.stored)}`);
      openedEarly++;
    }
  }
  for (const began of observed.opened) {
    if (expected.openSince(began)) continue;
    found.push(`[early] a wait begun at step ${began} returned true, but the latch was never open since`);
    openedEarly++;
  }
  for (const reply of observed.answeredLate)
    found.push(`[late] a copy delivered past its deadline was answered ${reply}, not refused`);
  return { found, openedEarly };
}
