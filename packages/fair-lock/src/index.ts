export { FairLock, fairLockKind, type FairLockOptions } from './FairLock.js';
export { fairLockKeys, type FairLockKeys } from './fairLockKeys.js';
