export { READ_UNLOCK_MESSAGE } from './commands/readWriteMessages.js';
export { LockUpgradeError } from './LockUpgradeError.js';
export { ReadLock, readLockKind, ReadWriteLock, ReadWriteLockHalf, WriteLock, writeLockKind } from './ReadWriteLock.js';
export type { ReadWriteMode } from './ReadWriteMode.js';
export { readWriteLockKeys, type ReadWriteLockKeys } from './readWriteLockKeys.js';
