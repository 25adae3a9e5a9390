export { RedLock } from './RedLock.js';
export { HeldRedLock, type RedLockHold } from './HeldRedLock.js';
export type { RedLockOptions, ResolvedRedLockOptions } from './RedLockOptions.js';
export { quorum, validityTime } from './quorum.js';
