import { prefixedName } from '@deadbolt/core/kit';

/** The Redis keys, fields and channel of one read-write lock, in Redisson's layout. */
export interface ReadWriteLockKeys {
  /** The lock hash; its `mode` field is `read` or `write`. */
  readonly lock: string;
  /** The channel releases are announced on: `redisson_rwlock:{name}`. */
  readonly channel: string;
  /** The writer's field: `<clientId>:<ownerId>:write`. */
  writerField(ownerField: string): string;
  /** The key carrying the lease of an owner's `n`th read hold: `{name}:<ownerField>:rwlock_timeout:<n>`. */
  readHoldKey(ownerField: string, n: number): string;
}

/** The keys a read-write lock named `name` uses; all share the lock's hash slot. */
export function readWriteLockKeys(name: string): ReadWriteLockKeys {
  // Redisson suffixes the tagged name: `{name}:suffix`, or `name:suffix` when it has its own tag.
  const tagged = name.includes('{') ? name : `{${name}}`;
  return {
    lock: name,
    channel: prefixedName('redisson_rwlock', name),
    writerField: (ownerField) => `${ownerField}:write`,
    readHoldKey: (ownerField, n) => `${tagged}:${ownerField}:rwlock_timeout:${n}`,
  };
}
