import { defineScript } from '@deadbolt/core/kit';
import addPermits from './lua/expirable-add-permits.lua';
import availablePermits from './lua/expirable-available-permits.lua';
import release from './lua/expirable-release.lua';
import renew from './lua/expirable-renew.lua';
import tryAcquire from './lua/expirable-try-acquire.lua';
import updateLease from './lua/expirable-update-lease.lua';

/**
 * The permit-expirable semaphore's scripts, one per operation, each Redisson's
 * `RPermitExpirableSemaphore` script in effect (its `trySetPermits` is the plain semaphore's: see
 * `semaphoreScripts`). Each request that changes something counts once however often it
 * arrives, and those that take, add or lengthen something are refused past their deadline (see
 * core's `request-deadline.lua` and `release-once.lua`).
 */
export const permitExpirableScripts = {
  tryAcquire: defineScript('semaphore/expirable-try-acquire', tryAcquire),
  release: defineScript('semaphore/expirable-release', release),
  updateLease: defineScript('semaphore/expirable-update-lease', updateLease),
  renew: defineScript('semaphore/expirable-renew', renew),
  addPermits: defineScript('semaphore/expirable-add-permits', addPermits),
  availablePermits: defineScript('semaphore/expirable-available-permits', availablePermits),
} as const;
