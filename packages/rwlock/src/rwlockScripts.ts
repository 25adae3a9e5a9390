import { coreLua, defineScript } from '@deadbolt/core';
import forceRelease from './lua/force-release.lua';
import readAcquire from './lua/read-acquire.lua';
import readHolds from './lua/read-holds.lua';
import readRelease from './lua/read-release.lua';
import renew from './lua/renew.lua';
import state from './lua/state.lua';
import writeAcquire from './lua/write-acquire.lua';
import writeRelease from './lua/write-release.lua';

/** What the write lock's acquisition script replies when its owner holds the read lock. */
export const UPGRADE_REFUSED = -3;

/** The read-write lock's scripts, each prefixed with the helpers it uses. */
export const rwlockScripts = {
  readAcquire: defineScript('rwlock/read-acquire', `${readHolds}\n${readAcquire}`),
  writeAcquire: defineScript('rwlock/write-acquire', `${readHolds}\n${writeAcquire}`),
  readRelease: defineScript('rwlock/read-release', `${coreLua.unlockLatch}\n${readHolds}\n${readRelease}`),
  writeRelease: defineScript('rwlock/write-release', `${coreLua.unlockLatch}\n${readHolds}\n${writeRelease}`),
  forceRelease: defineScript('rwlock/force-release', `${readHolds}\n${forceRelease}`),
  renew: defineScript('rwlock/renew', `${coreLua.renewBatch}\n${readHolds}\n${renew}`),
  state: defineScript('rwlock/state', state),
} as const;
