import { coreLua, defineScript, type Script } from '@deadbolt/core/kit';
import availablePermits from './lua/expirable-available-permits.lua';
import shared from './lua/expirable-permits.lua';
import release from './lua/expirable-release.lua';
import renew from './lua/expirable-renew.lua';
import tryAcquire from './lua/expirable-try-acquire.lua';
import updateLease from './lua/expirable-update-lease.lua';

// Each script runs after the fragment with the helpers they all share.
const withShared = (name: string, source: string): Script => defineScript(`semaphore/expirable-${name}`, `${shared}\n${source}`);

/**
 * The permit-expirable semaphore's scripts, one per operation, each Redisson's
 * `RPermitExpirableSemaphore` script in effect (its `trySetPermits` and `addPermits` are the
 * plain semaphore's: see `semaphoreScripts`).
 */
export const permitExpirableScripts = {
  tryAcquire: withShared('try-acquire', tryAcquire),
  // A release remembers its outcome for a re-sent request, as a lock's release does.
  release: withShared('release', `${coreLua.unlockLatch}\n${release}`),
  updateLease: withShared('update-lease', updateLease),
  renew: withShared('renew', renew),
  availablePermits: withShared('available-permits', availablePermits),
} as const;
