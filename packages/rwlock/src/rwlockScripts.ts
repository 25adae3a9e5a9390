import { defineScript } from '@deadbolt/core/kit';
import forceRelease from './lua/force-release.lua';
import readAcquire from './lua/read-acquire.lua';
import readRelease from './lua/read-release.lua';
import renew from './lua/renew.lua';
import state from './lua/state.lua';
import writeAcquire from './lua/write-acquire.lua';
import writeExtend from './lua/write-extend.lua';
import writeHandOff from './lua/write-handoff.lua';
import writeRelease from './lua/write-release.lua';

/**
 * The read-write lock's scripts. Each but `state` includes one of core's fragments (which carries
 * the fragments it is written over: the request deadline, the hold markers) and the read-hold
 * helpers (`read-holds.lua`).
 */
export const rwlockScripts = {
  readAcquire: defineScript('rwlock/read-acquire', readAcquire),
  writeAcquire: defineScript('rwlock/write-acquire', writeAcquire),
  readRelease: defineScript('rwlock/read-release', readRelease),
  writeExtend: defineScript('rwlock/write-extend', writeExtend),
  writeRelease: defineScript('rwlock/write-release', writeRelease),
  writeHandOff: defineScript('rwlock/write-handoff', writeHandOff),
  forceRelease: defineScript('rwlock/force-release', forceRelease),
  renew: defineScript('rwlock/renew', renew),
  state: defineScript('rwlock/state', state),
} as const;
