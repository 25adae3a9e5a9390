import { defineScript } from '@deadbolt/core/kit';
import countDown from './lua/count-down.lua';
import deleteLatch from './lua/delete.lua';
import getCount from './lua/get-count.lua';
import trySetCount from './lua/try-set-count.lua';

/**
 * The count-down latch's scripts. Those that change the latch include core's request-deadline
 * fragment: each request runs once, however often it reaches Redis, and never past its deadline.
 */
export const latchScripts = {
  trySetCount: defineScript('countdown-latch/try-set-count', trySetCount),
  countDown: defineScript('countdown-latch/count-down', countDown),
  delete: defineScript('countdown-latch/delete', deleteLatch),
  getCount: defineScript('countdown-latch/get-count', getCount),
} as const;
