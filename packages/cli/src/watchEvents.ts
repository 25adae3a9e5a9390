import { ownerLabel } from './format.js';
import { ownerName, type Holder, type LockInfo, type OwnerName } from './LockInfo.js';

/**
 * One change `deadbolt watch` saw between two looks at a lock, as `--json` writes it:
 * - `acquired`, `released`: the lock went from free to held or back (a release may also be a
 *   lease that ran out, or a force-unlock);
 * - `handed-off`: held by others than before, with no free look between;
 * - `holds-changed`: one holder's hold count changed (a re-entry, or a release of one of them);
 * - `reader-joined`, `reader-left`, `waiter-joined`, `waiter-left`: a read-write lock's readers, a
 *   fair lock's queue;
 * - `mode-changed`: a read-write lock went from `read` to `write` or back.
 */
export type LockEvent =
  | { readonly type: 'acquired' | 'released'; readonly holders: readonly OwnerName[] }
  | { readonly type: 'handed-off'; readonly from: readonly OwnerName[]; readonly to: readonly OwnerName[] }
  | { readonly type: 'holds-changed'; readonly holder: OwnerName; readonly from: number; readonly to: number }
  | {
      readonly type: 'reader-joined' | 'reader-left' | 'waiter-joined' | 'waiter-left';
      readonly owner: OwnerName;
    }
  | { readonly type: 'mode-changed'; readonly from: 'read' | 'write'; readonly to: 'read' | 'write' };

/**
 * What changed between two looks at a lock: acquisitions, releases, hand-offs from one holder to
 * the next, re-entries, readers coming and going, waiters joining and leaving the queue. Changes
 * between two looks that undo each other are not seen: `watch` samples, it does not subscribe to
 * every step.
 */
export function lockEvents(before: LockInfo | null, after: LockInfo | null): LockEvent[] {
  const events = [...exclusiveEvents(holdersOf(before, false), holdersOf(after, false))];
  events.push(...comings('reader', holdersOf(before, true), holdersOf(after, true)));
  events.push(...comings('waiter', before?.waiters ?? [], after?.waiters ?? []));
  if (before?.mode !== undefined && after?.mode !== undefined && before.mode !== after.mode) {
    events.push({ type: 'mode-changed', from: before.mode, to: after.mode });
  }
  return events;
}

/** An event in words, as `watch` shows it on a terminal. */
export function describeLockEvent(event: LockEvent): string {
  const names = (owners: readonly OwnerName[]) => owners.map(ownerLabel).join(', ');
  switch (event.type) {
    case 'acquired':
      return `acquired by ${names(event.holders)}`;
    case 'released':
      return `released by ${names(event.holders)} (or its lease ran out, or it was force-unlocked)`;
    case 'handed-off':
      return `hand-off: ${names(event.from)} -> ${names(event.to)}`;
    case 'holds-changed':
      return `holds of ${ownerLabel(event.holder)}: ${event.from} -> ${event.to}`;
    case 'mode-changed':
      return `mode: ${event.from} -> ${event.to}`;
    default: {
      const [who, what] = event.type.split('-');
      return `${who} ${ownerLabel(event.owner)} ${what}`;
    }
  }
}

function holdersOf(lock: LockInfo | null, readers: boolean): readonly Holder[] {
  return (lock?.holders ?? []).filter((holder) => (holder.role === 'reader') === readers);
}

// Events name owners alone: a holder's role and holds are in the look's lock.
const owner = (entry: { readonly field: string }): OwnerName => ownerName(entry.field);
const owners = (holders: readonly Holder[]): OwnerName[] => holders.map(owner);

function exclusiveEvents(before: readonly Holder[], after: readonly Holder[]): LockEvent[] {
  if (before.length === 0 && after.length === 0) return [];
  if (before.length === 0) return [{ type: 'acquired', holders: owners(after) }];
  if (after.length === 0) return [{ type: 'released', holders: owners(before) }];
  const same =
    before.length === after.length && before.every((holder) => after.some((other) => other.field === holder.field));
  if (!same) return [{ type: 'handed-off', from: owners(before), to: owners(after) }];
  return after.flatMap((holder): LockEvent[] => {
    const was = before.find((other) => other.field === holder.field)?.holds;
    return was !== undefined && was !== holder.holds
      ? [{ type: 'holds-changed', holder: owner(holder), from: was, to: holder.holds }]
      : [];
  });
}

// Who appeared and who went, by owner field.
function comings(
  what: 'reader' | 'waiter',
  before: readonly { field: string }[],
  after: readonly { field: string }[],
): LockEvent[] {
  const had = new Set(before.map((entry) => entry.field));
  const has = new Set(after.map((entry) => entry.field));
  return [
    ...[...has]
      .filter((field) => !had.has(field))
      .map((field) => ({ type: `${what}-joined` as const, owner: ownerName(field) })),
    ...[...had]
      .filter((field) => !has.has(field))
      .map((field) => ({ type: `${what}-left` as const, owner: ownerName(field) })),
  ];
}
