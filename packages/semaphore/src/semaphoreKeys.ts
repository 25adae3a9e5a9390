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

// A positive number of permits; zero or fewer wake nobody: nobody could take any, and the next
// change announces itself again.
const POSITIVE = /^[1-9]\d*$/;

/**
 * What a `Semaphore`'s message means to this client's waiters. Every message on its channel is
 * the number of permits available once it was sent (a release's, an `addPermits`', a
 * `trySetPermits`', Redisson's and Deadbolt's alike), so it wakes the waiters those permits can
 * serve, in the order they fell asleep, each counting the permits it asked for, as Redisson wakes
 * as many waiters as permits came free; waking the others would only make attempts that fail.
 * One that asks for more is woken by a later release, which announces itself again.
 */
export const SEMAPHORE_WAKES: WakeRule = (message) =>
  POSITIVE.test(message) ? { permits: Number(message) } : undefined;

/**
 * What a `PermitExpirableSemaphore`'s message means to this client's waiters: a positive number
 * wakes all of them. Its messages are not always the permits available (a release of several ids
 * announces how many it gave back, `addPermits` how many it added: Redisson's scripts), so only
 * trying tells whether a waiter's permits fit. A woken waiter that finds too few tries once and
 * sleeps again, so no release is ever missed.
 */
export const EXPIRABLE_SEMAPHORE_WAKES: WakeRule = (message) => (POSITIVE.test(message) ? 'all' : undefined);
