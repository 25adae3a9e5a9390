import { prefixedName } from '@deadbolt/core/kit';

/**
 * The counter a fenced lock named `name` draws its tokens from, `redisson_lock_token:{name}`,
 * in the lock's own hash slot so the acquire script can increment it atomically.
 */
export function fencingTokenKey(name: string): string {
  return prefixedName('redisson_lock_token', name);
}
