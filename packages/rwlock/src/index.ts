export { readWriteLockKeys, type ReadWriteLockKeys } from './readWriteLockKeys.js';
