import { prefixedName, type KeyLayout } from '@deadbolt/core/kit';

/**
 * The names a fenced lock derives from its name besides a lock's own (`LOCK_KEY_LAYOUT`): its
 * token counter `redisson_lock_token:{name}`.
 */
export const FENCED_LOCK_KEY_LAYOUT: KeyLayout<'token'> = { prefixes: { token: 'redisson_lock_token' } };

/**
 * The counter a fenced lock named `name` draws its tokens from, `redisson_lock_token:{name}`,
 * in the lock's own hash slot so the acquire script can increment it atomically.
 */
export function fencingTokenKey(name: string): string {
  return prefixedName(FENCED_LOCK_KEY_LAYOUT.prefixes.token, name);
}
