export { FairLock, fairLockKind, type FairLockOptions } from './FairLock.js';
export { FAIR_LOCK_KEY_LAYOUT, fairLockKeys, type FairLockKeys } from './fairLockKeys.js';
