export { READ_UNLOCK_MESSAGE } from './commands/readWriteMessages.js';
export { LockUpgradeError } from './LockUpgradeError.js';
export { ReadLock, readLockKind, ReadWriteLock, ReadWriteLockHalf, WriteLock, writeLockKind } from './ReadWriteLock.js';
export type { ReadWriteMode } from './ReadWriteMode.js';
export {
  MODE_FIELD,
  READ_WRITE_LOCK_KEY_LAYOUT,
  readWriteLockKeys,
  WRITER_FIELD_SUFFIX,
  type ReadWriteLockKeys,
} from './readWriteLockKeys.js';
