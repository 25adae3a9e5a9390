/**
 * Key and channel names in Redisson's layout, so that Java services using Redisson and Node
 * services using Deadbolt meet on the same keys.
 */

/**
 * Prefixes `name` the way Redisson does: the name becomes the hash tag, so the derived key lands
 * in the lock's own slot; a name that already contains a brace is used as it is, because Redis
 * then takes its first `{...}` section as the tag.
 */
export function prefixedName(prefix: string, name: string): string {
  return name.includes('{') ? `${prefix}:${name}` : `${prefix}:{${name}}`;
}

/** The channel a lock's releases are published on: `redisson_lock__channel:{name}`. */
export function lockChannelName(name: string): string {
  return prefixedName('redisson_lock__channel', name);
}

/**
 * The latch that remembers one release request's outcome for a short while, so that a release
 * the driver re-sends after a reconnect returns the first outcome instead of "not held".
 */
export function unlockLatchKey(name: string, requestId: string): string {
  return `${prefixedName('redisson_unlock_latch', name)}:${requestId}`;
}

/** The hash field that identifies an owner: `<clientId>:<ownerId>`. */
export function ownerField(clientId: string, ownerId: string): string {
  return `${clientId}:${ownerId}`;
}
