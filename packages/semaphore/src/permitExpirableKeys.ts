import { requestRecordKey } from '@deadbolt/core/kit';

/**
 * The sorted set of a permit-expirable semaphore's held permits, `{name}:timeout` (`name:timeout`
 * when the name has a hash tag of its own): Redisson's `RPermitExpirableSemaphore` layout. Each
 * member is a permit id's bytes, scored by the wall-clock time (ms) its lease ends. The name is
 * the key's hash tag, so in a cluster it lives in the semaphore's slot.
 */
export function permitTimeoutsKey(name: string): string {
  return name.includes('{') ? `${name}:timeout` : `{${name}}:timeout`;
}

/**
 * The lease record of one acquisition's held permits, `deadbolt_request:{name}:<hold id>:lease`,
 * beside the acquisition's request record, in the semaphore's slot: the number of the last update
 * of their lease that ran, kept for twice `commandTimeout` after it (`expirable-update-lease.lua`),
 * so that an earlier update, or a renewal, that arrives after it changes nothing. Redisson's
 * scripts never read it.
 */
export function leaseRecordKey(name: string, hold: string): string {
  return `${requestRecordKey(name, hold)}:lease`;
}
