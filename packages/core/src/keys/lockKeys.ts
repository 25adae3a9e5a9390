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
 * The record of one request about a lock, `deadbolt_request:{name}:<id>`: an acquisition's (by its
 * hold id) first says that it ran, so that a copy of it counts once, then what its release did;
 * another state-changing request's (by its own id) says that it ran, and its outcome. Every
 * record lives only until its request's deadline or a little longer (see the Lua fragments
 * request-deadline.lua and release-once.lua).
 */
export function requestRecordKey(name: string, id: string): string {
  return `${prefixedName('deadbolt_request', name)}:${id}`;
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
