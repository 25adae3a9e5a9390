export { LockUpgradeError } from './LockUpgradeError.js';
export { READ_UNLOCK_MESSAGE, ReadLock, ReadWriteLock, ReadWriteLockHalf, WriteLock, type ReadWriteMode } from './ReadWriteLock.js';
export { readWriteLockKeys, type ReadWriteLockKeys } from './readWriteLockKeys.js';
