export { SpinLock, spinLockKind, type SpinLockOptions } from './SpinLock.js';
