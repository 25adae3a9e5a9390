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
 * The latch that remembers the outcome of the release of hold `hold` for a short while, so that a
 * release the driver re-sends after a reconnect returns the first outcome instead of "not held".
 * (Running it twice is harmless at any delay: the hold markers see to that.)
 */
export function unlockLatchKey(name: string, hold: string): string {
  return `${prefixedName('redisson_unlock_latch', name)}:${hold}`;
}

/**
 * The hash beside a lock that marks each standing hold by its hold id (hold id -> owner field),
 * so that a request the driver re-sends counts once: `deadbolt_holds:{name}`. The Lua fragment
 * hold-markers.lua derives the same name.
 */
export function holdMarkersKey(name: string): string {
  return prefixedName('deadbolt_holds', name);
}

/** The hash field that identifies an owner: `<clientId>:<ownerId>`. */
export function ownerField(clientId: string, ownerId: string): string {
  return `${clientId}:${ownerId}`;
}
