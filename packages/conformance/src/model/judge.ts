import type { HoldRecord } from './HoldRecord.js';
import type { LockModel } from './LockModel.js';
import type { Half } from './ModelKind.js';
import type { OwnerPlan } from './owners.js';
import type { OutcomeKind } from './outcomes.js';

/** What the model allows an acquisition to end in, and the holds an outcome would tell it about. */
export interface AcquireJudgement {
  readonly allowed: ReadonlySet<OutcomeKind>;
  /** Holds of others that keep it out for certain, and those that may have ended meanwhile. */
  readonly certain: readonly HoldRecord[];
  readonly uncertain: readonly HoldRecord[];
}

/**
 * The outcomes an acquisition of `half` as `plan` may have, judged at `at` (when it resolved):
 * refused for a forged owner; `upgrade` for a write acquisition by an owner that certainly holds
 * read holds and no write hold; otherwise taken when nobody else may hold it, not taken (null, or
 * a wait that ran out) when someone else certainly holds it until then, and either when the other
 * holds may have ended in the meantime.
 */
export function judgeAcquire(model: LockModel, plan: OwnerPlan, half: Half, at: number): AcquireJudgement {
  const identity = plan.kind === 'known' ? plan.identity : undefined;
  const { certain, uncertain } = model.blockers(identity, half, at);
  if (plan.kind === 'refuse') return { allowed: new Set(['invalid']), certain, uncertain };
  let upgradeCertain = false;
  let upgradePossible = false;
  if (half === 'write' && identity) {
    const ownReads = model.countedOf(identity, 'read');
    const ownWrites = model.countedOf(identity, 'write');
    upgradeCertain = ownWrites.length === 0 && ownReads.some((hold) => model.certainAt(hold, at));
    upgradePossible = ownReads.length > 0 && ownWrites.every((hold) => !model.certainAt(hold, at));
  }
  if (upgradeCertain) return { allowed: new Set(['upgrade']), certain, uncertain };
  const allowed = new Set<OutcomeKind>(
    certain.length > 0 ? ['null'] : uncertain.length > 0 ? ['held', 'null'] : ['held'],
  );
  if (upgradePossible) allowed.add('upgrade');
  return { allowed, certain, uncertain };
}

/**
 * The outcomes of releasing (or extending) `hold` at `at`: refused (`notHeld`) once released or
 * known lost; done (`ok`) while it certainly stands; either when its lease may have ended (whether
 * a hold whose own lease ended while its owner's other holds keep the lock may still release is
 * the library's to decide, and the snapshot after checks that nothing else changed).
 */
export function judgeHoldCall(
  model: LockModel,
  hold: HoldRecord,
  at: number,
  abortedBefore: boolean,
): ReadonlySet<OutcomeKind> {
  if (hold.released || !hold.counted || abortedBefore) return new Set(['notHeld']);
  if (hold.live && model.certainAt(hold, at)) return new Set(['ok']);
  return new Set(['ok', 'notHeld']);
}

/** Which holds a `forceUnlock` of `half` deletes when it deletes anything, and whether `true` and `false` are allowed. */
export function judgeForceUnlock(
  model: LockModel,
  half: Half,
  readWrite: boolean,
  at: number,
): { canDelete: boolean; mustDelete: boolean } {
  const counted = model.holds.filter((hold) => hold.counted);
  const certain = (holds: readonly HoldRecord[]) => holds.some((hold) => model.certainAt(hold, at));
  if (!readWrite) return { canDelete: counted.length > 0, mustDelete: certain(counted) };
  const writers = counted.filter((hold) => hold.half === 'write');
  const readers = counted.filter((hold) => hold.half === 'read');
  if (half === 'write') return { canDelete: writers.length > 0, mustDelete: certain(writers) };
  return {
    canDelete: readers.length > 0 && !certain(writers),
    mustDelete: certain(readers) && writers.length === 0,
  };
}

/** Whether `isLocked` of `half` may answer `true` and `false` at `at`. */
export function judgeIsLocked(model: LockModel, half: Half, at: number): { canBeTrue: boolean; canBeFalse: boolean } {
  const relevant = model.holds.filter((hold) => hold.counted && (half === 'exclusive' || hold.half === half));
  return { canBeTrue: relevant.length > 0, canBeFalse: !relevant.some((hold) => model.certainAt(hold, at)) };
}
