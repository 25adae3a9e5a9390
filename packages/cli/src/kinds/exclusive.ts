import { ownerName, type Holder } from '../LockInfo.js';

/**
 * The holders of an exclusive lock hash (plain, fair, fenced): one field per owner,
 * `<clientId>:<ownerId>`, whose value is its hold count. `undefined` when the hash is not in that
 * layout: a field without a colon, or a value that is not a positive count.
 */
export function exclusiveHolders(hash: Readonly<Record<string, string>>): Holder[] | undefined {
  const holders: Holder[] = [];
  for (const [field, value] of Object.entries(hash)) {
    const holds = holdCount(value);
    if (!isOwnerField(field) || holds === undefined) return undefined;
    holders.push({ ...ownerName(field), role: 'owner', holds });
  }
  return holders;
}

/** Whether a hash field names an owner, `<clientId>:<ownerId>` (a writer's ends in `:write`). */
export function isOwnerField(field: string): boolean {
  return field.includes(':');
}

/** A stored hold count; `undefined` unless a whole number of at least 0. */
export function holdCount(value: string): number | undefined {
  // A release may leave a count at 0 for the instant before the lock is deleted; never less.
  return /^\d+$/.test(value) ? Number(value) : undefined;
}
