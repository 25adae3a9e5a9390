import { coreLua, defineScript, type Script } from '@deadbolt/core/kit';
import addPermits from './lua/expirable-add-permits.lua';
import availablePermits from './lua/expirable-available-permits.lua';
import shared from './lua/expirable-permits.lua';
import release from './lua/expirable-release.lua';
import renew from './lua/expirable-renew.lua';
import tryAcquire from './lua/expirable-try-acquire.lua';
import updateLease from './lua/expirable-update-lease.lua';

// A script about held permits runs after the fragment with the helpers they share, then the core
// fragment it needs, if any: the request deadline, or the release-once that carries it.
const withShared = (name: string, source: string, core?: string): Script =>
  defineScript(`semaphore/expirable-${name}`, [shared, core, source].filter((part) => part !== undefined).join('\n'));

/**
 * The permit-expirable semaphore's scripts, one per operation, each Redisson's
 * `RPermitExpirableSemaphore` script in effect (its `trySetPermits` is the plain semaphore's: see
 * `semaphoreScripts`). Each request that changes something counts once however often it
 * arrives, and those that take, add or lengthen something are refused past their deadline (see
 * core's `request-deadline.lua` and `release-once.lua`).
 */
export const permitExpirableScripts = {
  tryAcquire: withShared('try-acquire', tryAcquire, coreLua.requestDeadline),
  release: withShared('release', release, coreLua.releaseOnce),
  updateLease: withShared('update-lease', updateLease, coreLua.requestDeadline),
  renew: withShared('renew', renew, coreLua.requestDeadline),
  addPermits: defineScript('semaphore/expirable-add-permits', `${coreLua.requestDeadline}\n${addPermits}`),
  availablePermits: withShared('available-permits', availablePermits),
} as const;
