import { lockAcquire } from './lockAcquire.js';
import { lockExtend } from './lockExtend.js';
import { lockForceRelease } from './lockForceRelease.js';
import { lockHandOff } from './lockHandOff.js';
import { lockHolders } from './lockHolders.js';
import { lockRelease } from './lockRelease.js';
import { lockRenew } from './renewBatch.js';
import { lockState } from './lockState.js';

/**
 * The commands of the reentrant lock's layout (Redisson's `RLock`), for kinds that share it (the
 * fenced lock takes its holds its own way and releases them with these).
 */
export const lockCommands = {
  acquire: lockAcquire,
  release: lockRelease,
  handOff: lockHandOff,
  forceRelease: lockForceRelease,
  holders: lockHolders,
  extend: lockExtend,
  state: lockState,
  renew: lockRenew,
} as const;
