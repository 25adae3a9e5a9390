export { fairLockKeys, type FairLockKeys } from './fairLockKeys.js';
