/**
 * Key and channel names in Redisson's layout, so that Java services using Redisson and Node
 * services using Deadbolt meet on the same keys.
 */
import type { KeyLayout } from './KeyLayout.js';

/**
 * The names every lock derives from its name: Deadbolt's hold markers (`deadbolt_holds:{name}`),
 * request records (`deadbolt_request:{name}:<id>`) and the release channel
 * (`redisson_lock__channel:{name}`, followed by `:<ownerField>` for a fair lock's waiter).
 */
export const LOCK_KEY_LAYOUT: KeyLayout<'holdMarkers' | 'requestRecords' | 'channel'> = {
  prefixes: { holdMarkers: 'deadbolt_holds', requestRecords: 'deadbolt_request', channel: 'redisson_lock__channel' },
};

/**
 * Prefixes `name` the way Redisson does: the name becomes the hash tag, so the derived key lands
 * in the lock's own slot; a name that already contains a brace is used as it is, because Redis
 * then takes its first `{...}` section as the tag.
 */
export function prefixedName(prefix: string, name: string): string {
  return name.includes('{') ? `${prefix}:${name}` : `${prefix}:{${name}}`;
}

/**
 * The lock name {@link prefixedName} made `key` from with `prefix`; `undefined` when `key` is
 * no such name. `prefix:{x}` could also come from the name `{x}` itself; the name without braces
 * is the one Redisson's and Deadbolt's helpers would make it from, so that is the answer.
 */
export function nameFromPrefixed(prefix: string, key: string): string | undefined {
  if (!key.startsWith(`${prefix}:`)) return undefined;
  const rest = key.slice(prefix.length + 1);
  const name = /^\{([^{}]*)\}$/.exec(rest)?.[1] ?? rest;
  return name !== '' && prefixedName(prefix, name) === key ? name : undefined;
}

/** The channel a lock's releases are published on: `redisson_lock__channel:{name}`. */
export function lockChannelName(name: string): string {
  return prefixedName(LOCK_KEY_LAYOUT.prefixes.channel, name);
}

/**
 * The record of one request about a lock, `deadbolt_request:{name}:<id>`: an acquisition's (by its
 * hold id) first says that it ran, so that a copy of it counts once, then what its release did;
 * another state-changing request's (by its own id) says that it ran, and its outcome. Every
 * record lives only until its request's deadline or a little longer (see the Lua fragments
 * request-deadline.lua and release-once.lua).
 */
export function requestRecordKey(name: string, id: string): string {
  return `${prefixedName(LOCK_KEY_LAYOUT.prefixes.requestRecords, name)}:${id}`;
}

/**
 * The hash beside a lock that marks each standing hold by its hold id (hold id -> owner field),
 * so that a request the driver re-sends counts once: `deadbolt_holds:{name}`. The Lua fragment
 * hold-markers.lua derives the same name.
 */
export function holdMarkersKey(name: string): string {
  return prefixedName(LOCK_KEY_LAYOUT.prefixes.holdMarkers, name);
}

/** The hash field that identifies an owner: `<clientId>:<ownerId>`. */
export function ownerField(clientId: string, ownerId: string): string {
  return `${clientId}:${ownerId}`;
}
