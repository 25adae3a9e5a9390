import { coreLua, defineScript } from '@deadbolt/core/kit';
import acquire from './lua/acquire.lua';
import forceRelease from './lua/force-release.lua';
import leave from './lua/leave.lua';
import queue from './lua/queue.lua';
import release from './lua/release.lua';

/** The fair lock's scripts, each prefixed with the core fragment and the queue helpers it uses. */
export const fairScripts = {
  acquire: defineScript('fair-lock/acquire', `${coreLua.hold}\n${queue}\n${acquire}`),
  release: defineScript('fair-lock/release', `${coreLua.releaseHold}\n${queue}\n${release}`),
  forceRelease: defineScript('fair-lock/force-release', `${coreLua.sameHolders}\n${queue}\n${forceRelease}`),
  leave: defineScript('fair-lock/leave', `${coreLua.requestDeadline}\n${queue}\n${leave}`),
} as const;
