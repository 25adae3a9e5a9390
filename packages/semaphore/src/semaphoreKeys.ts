import { prefixedName, type KeyLayout, type WakeRule } from '@deadbolt/core/kit';

/**
 * The names a semaphore derives from its name: its channel `redisson_sc:{name}`, which
 * `RSemaphore` and `RPermitExpirableSemaphore` share.
 */
export const SEMAPHORE_KEY_LAYOUT: KeyLayout<'channel'> = { prefixes: { channel: 'redisson_sc' } };

/**
 * The channel a semaphore's changes are announced on: `redisson_sc:{name}` (`redisson_sc:name`
 * when the name has a hash tag of its own), Redisson's `RSemaphore` channel. Its messages are
 * numbers of permits, as Redisson's scripts publish them: those available after most changes, those
 * given back by a permit-expirable release of several ids, those added by a permit-expirable
 * `addPermits`. The name is the channel's hash tag, so in a cluster the channel lives in the
 * semaphore's slot.
 */
export function semaphoreChannelName(name: string): string {
  return prefixedName(SEMAPHORE_KEY_LAYOUT.prefixes.channel, name);
}

/**
 * What a semaphore's message means to this client's waiters: a positive number of permits wakes
 * all of them. Redisson wakes as many waiters as permits came free, which suits waiters that each
 * want one; Deadbolt's may each want several, and only trying tells whether they fit. A woken
 * waiter that finds too few tries once and sleeps again, so no release is ever missed. Zero or
 * fewer permits wake nobody: nobody could take any, and the next change announces itself again.
 */
export const SEMAPHORE_WAKES: WakeRule = (message) => (/^[1-9]\d*$/.test(message) ? 'all' : undefined);
