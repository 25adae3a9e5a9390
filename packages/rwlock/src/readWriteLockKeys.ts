import { prefixedName, type KeyLayout } from '@deadbolt/core/kit';

/** The hash field holding a read-write lock's mode, `read` or `write`, beside its owners' fields. */
export const MODE_FIELD = 'mode';

/** What a writer's field adds to its owner field: `<clientId>:<ownerId>:write`. */
export const WRITER_FIELD_SUFFIX = ':write';

// A read hold's lease key ends in `:rwlock_timeout:<n>`, as Redisson's does.
const READ_HOLD_KEY_PART = 'rwlock_timeout';
const READ_HOLD_KEY = new RegExp(`:${READ_HOLD_KEY_PART}:\\d+$`);

/**
 * The names a read-write lock derives from its name: its channel `redisson_rwlock:{name}`, and
 * each read hold's lease key `{name}:<ownerField>:rwlock_timeout:<n>`.
 */
export const READ_WRITE_LOCK_KEY_LAYOUT: KeyLayout<'channel'> = {
  prefixes: { channel: 'redisson_rwlock' },
  isSuffixed: (key) => READ_HOLD_KEY.test(key),
};

/** The Redis keys, fields and channel of one read-write lock, in Redisson's layout. */
export interface ReadWriteLockKeys {
  /** The lock hash; its `mode` field is `read` or `write`. */
  readonly lock: string;
  /** The channel releases are announced on: `redisson_rwlock:{name}`. */
  readonly channel: string;
  // Function properties, not methods: they use no `this`, so callers may take them off the object.
  /** The writer's field: `<clientId>:<ownerId>:write`. */
  readonly writerField: (ownerField: string) => string;
  /** The key carrying the lease of an owner's `n`th read hold: `{name}:<ownerField>:rwlock_timeout:<n>`. */
  readonly readHoldKey: (ownerField: string, n: number) => string;
}

/** The keys a read-write lock named `name` uses; all share the lock's hash slot. */
export function readWriteLockKeys(name: string): ReadWriteLockKeys {
  // Redisson suffixes the tagged name: `{name}:suffix`, or `name:suffix` when it has its own tag.
  const tagged = name.includes('{') ? name : `{${name}}`;
  return {
    lock: name,
    channel: prefixedName(READ_WRITE_LOCK_KEY_LAYOUT.prefixes.channel, name),
    writerField: (ownerField) => `${ownerField}${WRITER_FIELD_SUFFIX}`,
    readHoldKey: (ownerField, n) => `${tagged}:${ownerField}:${READ_HOLD_KEY_PART}:${n}`,
  };
}
