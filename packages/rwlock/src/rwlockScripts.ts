import { coreLua, defineScript } from '@deadbolt/core/kit';
import forceRelease from './lua/force-release.lua';
import readAcquire from './lua/read-acquire.lua';
import readHolds from './lua/read-holds.lua';
import readRelease from './lua/read-release.lua';
import renew from './lua/renew.lua';
import state from './lua/state.lua';
import writeAcquire from './lua/write-acquire.lua';
import writeExtend from './lua/write-extend.lua';
import writeHandOff from './lua/write-handoff.lua';
import writeRelease from './lua/write-release.lua';

/**
 * The read-write lock's scripts, each prefixed with one of core's fragments (which carries the
 * fragments it is written over: the request deadline, the hold markers) and the read-hold helpers.
 */
export const rwlockScripts = {
  readAcquire: defineScript('rwlock/read-acquire', `${coreLua.hold}\n${readHolds}\n${readAcquire}`),
  writeAcquire: defineScript('rwlock/write-acquire', `${coreLua.hold}\n${readHolds}\n${writeAcquire}`),
  readRelease: defineScript('rwlock/read-release', `${coreLua.releaseHold}\n${readHolds}\n${readRelease}`),
  writeExtend: defineScript('rwlock/write-extend', `${coreLua.holdMarkers}\n${readHolds}\n${writeExtend}`),
  writeRelease: defineScript('rwlock/write-release', `${coreLua.releaseHold}\n${readHolds}\n${writeRelease}`),
  writeHandOff: defineScript('rwlock/write-handoff', `${coreLua.passHold}\n${readHolds}\n${writeHandOff}`),
  forceRelease: defineScript('rwlock/force-release', `${coreLua.sameHolders}\n${readHolds}\n${forceRelease}`),
  renew: defineScript('rwlock/renew', `${coreLua.renewBatch}\n${readHolds}\n${renew}`),
  state: defineScript('rwlock/state', state),
} as const;
