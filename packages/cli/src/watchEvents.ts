import { ownerLabel } from './format.js';
import { ownerName, type Holder, type LockInfo } from './LockInfo.js';

/**
 * What changed between two looks at a lock, in words: acquisitions, releases, hand-offs from one
 * holder to the next, re-entries, readers coming and going, waiters joining and leaving the queue.
 * Changes between two looks that undo each other are not seen: `watch` samples, it does not
 * subscribe to every step.
 */
export function lockEvents(before: LockInfo | null, after: LockInfo | null): string[] {
  const events = [...exclusiveEvents(holdersOf(before, false), holdersOf(after, false))];
  events.push(...comings('reader', holdersOf(before, true), holdersOf(after, true)));
  events.push(...comings('waiter', before?.waiters ?? [], after?.waiters ?? []));
  if (before?.mode !== undefined && after?.mode !== undefined && before.mode !== after.mode) {
    events.push(`mode: ${before.mode} -> ${after.mode}`);
  }
  return events;
}

function holdersOf(lock: LockInfo | null, readers: boolean): readonly Holder[] {
  return (lock?.holders ?? []).filter((holder) => (holder.role === 'reader') === readers);
}

function exclusiveEvents(before: readonly Holder[], after: readonly Holder[]): string[] {
  const names = (holders: readonly Holder[]) => holders.map(ownerLabel).join(', ');
  if (before.length === 0 && after.length === 0) return [];
  if (before.length === 0) return [`acquired by ${names(after)}`];
  if (after.length === 0) return [`released by ${names(before)} (or its lease ran out, or it was force-unlocked)`];
  const same =
    before.length === after.length && before.every((holder) => after.some((other) => other.field === holder.field));
  if (!same) return [`hand-off: ${names(before)} -> ${names(after)}`];
  return after.flatMap((holder) => {
    const was = before.find((other) => other.field === holder.field)?.holds;
    return was !== undefined && was !== holder.holds
      ? [`holds of ${ownerLabel(holder)}: ${was} -> ${holder.holds}`]
      : [];
  });
}

// Who appeared and who went, by owner field.
function comings(what: string, before: readonly { field: string }[], after: readonly { field: string }[]): string[] {
  const had = new Set(before.map((entry) => entry.field));
  const has = new Set(after.map((entry) => entry.field));
  const label = (field: string) => ownerLabel(ownerName(field));
  return [
    ...[...has].filter((field) => !had.has(field)).map((field) => `${what} ${label(field)} joined`),
    ...[...had].filter((field) => !has.has(field)).map((field) => `${what} ${label(field)} left`),
  ];
}
