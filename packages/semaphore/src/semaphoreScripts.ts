import { defineScript } from '@deadbolt/core/kit';
import addPermits from './lua/add-permits.lua';
import availablePermits from './lua/available-permits.lua';
import drainPermits from './lua/drain-permits.lua';
import returnPermits from './lua/return-permits.lua';
import syncHolds from './lua/sync-holds.lua';
import tryAcquire from './lua/try-acquire.lua';
import trySetPermits from './lua/try-set-permits.lua';

/**
 * The semaphore's scripts, one per operation, each Redisson's `RSemaphore` script in effect. Those
 * that change the permits count each request once however often it arrives, and those that take
 * or add permits are refused past their deadline (see core's `request-deadline.lua` and
 * `release-once.lua`); an acquisition's permits are held under its hold id (see
 * `semaphore-holds.lua`), and every script that reads or writes the holds first makes them live
 * as the semaphore does.
 */
export const semaphoreScripts = {
  tryAcquire: defineScript('semaphore/try-acquire', tryAcquire),
  returnPermits: defineScript('semaphore/return-permits', returnPermits),
  addPermits: defineScript('semaphore/add-permits', addPermits),
  trySetPermits: defineScript('semaphore/try-set-permits', trySetPermits),
  drainPermits: defineScript('semaphore/drain-permits', drainPermits),
  availablePermits: defineScript('semaphore/available-permits', availablePermits),
  syncHolds: defineScript('semaphore/sync-holds', syncHolds),
} as const;
