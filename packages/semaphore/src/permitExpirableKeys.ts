/**
 * The sorted set of a permit-expirable semaphore's held permits, `{name}:timeout` (`name:timeout`
 * when the name has a hash tag of its own): Redisson's `RPermitExpirableSemaphore` layout. Each
 * member is a permit id's bytes, scored by the wall-clock time (ms) its lease ends. The name is
 * the key's hash tag, so in a cluster it lives in the semaphore's slot.
 */
export function permitTimeoutsKey(name: string): string {
  return name.includes('{') ? `${name}:timeout` : `{${name}}:timeout`;
}
