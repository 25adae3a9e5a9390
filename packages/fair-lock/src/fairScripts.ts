import { defineScript } from '@deadbolt/core/kit';
import acquire from './lua/acquire.lua';
import forceRelease from './lua/force-release.lua';
import leave from './lua/leave.lua';
import release from './lua/release.lua';

/** The fair lock's scripts, each including the core fragment and the queue helpers it uses. */
export const fairScripts = {
  acquire: defineScript('fair-lock/acquire', acquire),
  release: defineScript('fair-lock/release', release),
  forceRelease: defineScript('fair-lock/force-release', forceRelease),
  leave: defineScript('fair-lock/leave', leave),
} as const;
