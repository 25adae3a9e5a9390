import { prefixedName, type WakeRule } from '@deadbolt/core/kit';

/**
 * The channel a semaphore's changes are announced on: `redisson_sc:{name}` (`redisson_sc:name`
 * when the name has a hash tag of its own), Redisson's `RSemaphore` channel. Its messages are the
 * permits available after the change. The name is the channel's hash tag, so in a cluster the
 * channel lives in the semaphore's slot.
 */
export function semaphoreChannelName(name: string): string {
  return prefixedName('redisson_sc', name);
}

/**
 * The marker of one `Semaphore` request, `deadbolt_permit_request:{name}:<request id>`
 * (`deadbolt_permit_request:name:<request id>` when the name has a hash tag of its own), in the
 * semaphore's slot. It makes a request that arrives twice count once: an acquisition's marker
 * holds the permits it took while they are held, then `returned` for a while; the marker of
 * `release(n)`, `addPermits` and `drainPermits` holds the first run's reply for a while.
 * Redisson's scripts never read it.
 */
export function permitRequestKey(name: string, request: string): string {
  return `${prefixedName('deadbolt_permit_request', name)}:${request}`;
}

/**
 * What a semaphore's message means to this client's waiters: a positive number of permits wakes
 * all of them. Redisson wakes as many waiters as permits came free, which suits waiters that each
 * want one; Deadbolt's may each want several, and only trying tells whether they fit. A woken
 * waiter that finds too few tries once and sleeps again, so no release is ever missed. Zero or
 * fewer permits wake nobody: nobody could take any, and the next change announces itself again.
 */
export const SEMAPHORE_WAKES: WakeRule = (message) => (/^[1-9]\d*$/.test(message) ? 'all' : undefined);
