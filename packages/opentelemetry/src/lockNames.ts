import { createHash } from 'node:crypto';

/**
 * What the telemetry says of a lock's name (the `deadbolt.lock.name` attribute), on metrics and
 * spans alike. Every distinct value is a time series of its own for each instrument, and lock
 * names are often unbounded (one per order, per user, per date), so the default leaves them out.
 *
 * - `'drop'` (default): no name attribute at all.
 * - `'keep'`: the name as it is; only for a small, fixed set of lock names.
 * - `'hash'`: the first 12 hex digits of the name's SHA-256, stable across processes and
 *   releases, so a known name can be looked up (`printf %s NAME | sha256sum | cut -c1-12`); it
 *   bounds the attribute's length, not the number of series.
 * - a function: a name of your choosing per lock name, to group names, e.g. strip the ids from
 *   `invoices:2026-11` to get `invoices`. Return `undefined` to leave the attribute out.
 */
export type LockNamePolicy = 'drop' | 'keep' | 'hash' | ((name: string) => string | undefined);

/** The `deadbolt.lock.name` value for a lock name under `policy`; `undefined` for none. */
export type LockNameMapper = (name: string) => string | undefined;

const HASH_DIGITS = 12;

/** The mapper for `policy`. */
export function lockNameMapper(policy: LockNamePolicy): LockNameMapper {
  switch (policy) {
    case 'drop':
      return () => undefined;
    case 'keep':
      return (name) => name;
    case 'hash':
      return (name) => createHash('sha256').update(name).digest('hex').slice(0, HASH_DIGITS);
    default:
      return policy;
  }
}
