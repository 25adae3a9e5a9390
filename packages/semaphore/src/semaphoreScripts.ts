import { defineScript } from '@deadbolt/core/kit';
import addPermits from './lua/add-permits.lua';
import availablePermits from './lua/available-permits.lua';
import drainPermits from './lua/drain-permits.lua';
import returnPermits from './lua/return-permits.lua';
import tryAcquire from './lua/try-acquire.lua';
import trySetPermits from './lua/try-set-permits.lua';

/**
 * The semaphore's scripts, one per operation, each Redisson's `RSemaphore` script in effect; those
 * that change the permits count each request once (see `permitRequestKey`).
 */
export const semaphoreScripts = {
  tryAcquire: defineScript('semaphore/try-acquire', tryAcquire),
  returnPermits: defineScript('semaphore/return-permits', returnPermits),
  addPermits: defineScript('semaphore/add-permits', addPermits),
  trySetPermits: defineScript('semaphore/try-set-permits', trySetPermits),
  drainPermits: defineScript('semaphore/drain-permits', drainPermits),
  availablePermits: defineScript('semaphore/available-permits', availablePermits),
} as const;
