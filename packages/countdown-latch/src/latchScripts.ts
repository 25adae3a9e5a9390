import { coreLua, defineScript } from '@deadbolt/core/kit';
import countDown from './lua/count-down.lua';
import deleteLatch from './lua/delete.lua';
import getCount from './lua/get-count.lua';
import trySetCount from './lua/try-set-count.lua';

/**
 * The count-down latch's scripts. Those that change the latch run after core's unlock-latch
 * fragment, so that a request the driver re-sends (its reply lost) acts once.
 */
export const latchScripts = {
  trySetCount: defineScript('countdown-latch/try-set-count', `${coreLua.unlockLatch}\n${trySetCount}`),
  countDown: defineScript('countdown-latch/count-down', `${coreLua.unlockLatch}\n${countDown}`),
  delete: defineScript('countdown-latch/delete', `${coreLua.unlockLatch}\n${deleteLatch}`),
  getCount: defineScript('countdown-latch/get-count', getCount),
} as const;
