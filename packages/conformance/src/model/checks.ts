import type { HoldRecord } from './HoldRecord.js';
import type { LockModel } from './LockModel.js';
import type { ObservedLock } from './observe.js';
import type { ViolationLog } from './Violation.js';
import { now } from './timing.js';

/** A promise one step made about the TTL, checked against the snapshot after it. */
export interface ExtendPromise {
  readonly hold: HoldRecord;
  readonly ms: number;
}

/**
 * Redis-level exclusion, whatever the model says: an exclusive lock has at most one owner field;
 * a read-write lock in write mode has one writer field and reader fields of that writer's owner
 * only, and in read mode no writer field.
 */
export function checkExclusion(observed: ObservedLock, readWrite: boolean, log: ViolationLog): void {
  const fields = [...observed.fields.keys()];
  if (!readWrite) {
    log.expect(
      fields.length <= 1,
      'exclusion',
      () => `${fields.length} owner fields in one exclusive lock: ${fields.join(', ')}`,
    );
    return;
  }
  const writers = fields.filter((field) => field.endsWith(':write'));
  const readers = fields.filter((field) => !field.endsWith(':write'));
  if (observed.mode === 'write') {
    log.expect(
      writers.length === 1,
      'exclusion',
      () => `write mode with ${writers.length} writer fields: ${writers.join(', ')}`,
    );
    const owner = writers[0]?.slice(0, -':write'.length);
    const strangers = readers.filter((field) => field !== owner);
    log.expect(
      strangers.length === 0,
      'exclusion',
      () => `writer ${writers[0]} together with other owners' readers: ${strangers.join(', ')}`,
    );
  } else {
    log.expect(
      writers.length === 0,
      'exclusion',
      () => `mode ${String(observed.mode)} with writer fields: ${writers.join(', ')}`,
    );
  }
}

/**
 * Reconciles the model's hold counts with Redis's. A field may have fewer holds than the model
 * counts only when the missing ones are its oldest, not yet seen alongside the rest, and may all
 * have ended by then (the field expired, and was taken afresh by the newer ones): those are marked
 * lost. Anything else is a violation: holds lost while some believed them held (`held`), or counts
 * that no history explains (`state`).
 */
export function reconcile(model: LockModel, observed: ObservedLock, log: ViolationLog): void {
  const counted = model.countedByField();
  for (const field of new Set([...counted.keys(), ...observed.fields.keys()])) {
    const actual = observed.fields.get(field) ?? 0;
    // Holds whose release rejected with the loss but may have gone through: Redis's count says
    // which did, the first of them first.
    let holds = counted.get(field) ?? [];
    const released = holds.filter((hold) => hold.mayBeReleased).slice(0, Math.max(0, holds.length - actual));
    for (const hold of released) hold.counted = false;
    holds = holds.filter((hold) => hold.counted);
    if (actual === holds.length) {
      for (const hold of holds) hold.confirmed = true;
      continue;
    }
    const missing = holds.length - actual;
    if (missing < 0) {
      log.add('state', `Redis counts ${actual} holds of ${field}, the model ${holds.length}: ${describeAll(holds)}`);
      continue;
    }
    const gone = holds.slice(0, missing);
    const kept = holds.slice(missing);
    const until = kept[0]?.resolvedAt ?? observed.at;
    if (kept.some((hold) => hold.confirmed) || !model.couldAllBeGone(gone, until)) {
      const believers = gone.filter((hold) => hold.aliveUntil > until + model.timing.tolerance);
      if (believers.length > 0) {
        const ends = believers.map(
          (hold) => `${hold.describe()} believes until ${fmt(hold.believedEnd - observed.at)} ms from now`,
        );
        log.add(
          'held',
          `Redis counts ${actual} holds of ${field}, the model ${holds.length}; lost while believed held: ${ends.join('; ')}`,
        );
      } else {
        log.add('state', `Redis counts ${actual} holds of ${field}, the model ${holds.length}: ${describeAll(holds)}`);
      }
      continue;
    }
    model.lose(gone, observed.at);
    for (const hold of kept) hold.confirmed = true;
  }
}

/**
 * Every live hold is really held, for as long as it believes: its field is in Redis and the TTL
 * (of the hash, and of a read hold's own keys) is at least what is left of its lease.
 */
export function checkHeld(model: LockModel, observed: ObservedLock, log: ViolationLog): void {
  const tolerance = model.timing.tolerance;
  for (const hold of model.holds) {
    if (!hold.live || hold.held.signal.aborted) continue;
    const left = hold.believedEnd - observed.at;
    if (left <= tolerance) continue;
    const count = observed.fields.get(hold.field) ?? 0;
    if (count === 0) {
      log.add(
        'held',
        `${hold.describe()}: signal not aborted, ${fmt(left)} ms of lease left, but ${hold.field} is not in Redis`,
      );
      continue;
    }
    const ttls: [string, number][] = [['lock', observed.ttl]];
    const keyTtl = observed.readerKeyTtl.get(hold.field);
    if (hold.half === 'read' && keyTtl !== undefined) ttls.push(['its read-hold keys', keyTtl]);
    for (const [what, ttl] of ttls) {
      const enough = ttl === -1 || (Number.isFinite(left) ? ttl >= left - tolerance : ttl > 0);
      log.expect(
        enough,
        'held',
        () =>
          `${hold.describe()}: believes ${Number.isFinite(left) ? `${fmt(left)} ms` : 'a renewed lease'} left, PTTL of ${what} is ${ttl}`,
      );
    }
  }
}

/** Signals abort in time: a fixed lease at its end, a hold whose lock was taken from it by its next renewal. */
export function checkSignals(model: LockModel, log: ViolationLog): void {
  const at = now();
  for (const hold of model.holds) {
    if (hold.released || hold.abortedAt !== undefined || at <= hold.abortDeadline) continue;
    const why =
      hold.forcedAt !== undefined
        ? 'force-unlocked'
        : hold.goneAt !== undefined
          ? 'its lock gone from Redis'
          : 'its lease ended';
    log.add(
      'signal',
      `${hold.describe()}: ${why}, signal still not aborted ${fmt(at - hold.abortDeadline)} ms past the deadline`,
    );
  }
}

/**
 * `extend(ms)` on an owner's only hold (and the lock's only owner) sets the TTL to `ms`: the
 * snapshot right after it sees at most `ms` (and, by {@link checkHeld}, at least what is left).
 * Also for a hold the watchdog was renewing: a renewal sent before the extend that lands after it
 * leaves the extended lease alone (issue 30; the soak of 2026-11-24 saw PTTL 900, the watchdog's
 * lease, after `extend(600)`).
 */
export function checkExtendExact(
  promise: ExtendPromise,
  observed: ObservedLock,
  readWrite: boolean,
  log: ViolationLog,
  tolerance: number,
): void {
  if (readWrite || observed.fields.size !== 1 || observed.fields.get(promise.hold.field) !== 1) return;
  log.expect(
    observed.ttl <= promise.ms + tolerance,
    'extend',
    () => `${promise.hold.describe()}.extend(${promise.ms}) as the owner's only hold left PTTL ${observed.ttl}`,
  );
}

function describeAll(holds: readonly HoldRecord[]): string {
  return holds.map((hold) => hold.describe()).join('; ') || 'none';
}

function fmt(ms: number): string {
  return Number.isFinite(ms) ? String(Math.round(ms)) : String(ms);
}
