export { HeldExpirablePermits } from './HeldExpirablePermits.js';
export { HeldPermits } from './HeldPermits.js';
export { PermitExpirableSemaphore, type ExpirablePermitAcquireOptions } from './PermitExpirableSemaphore.js';
export { PermitWaitTimeoutError } from './PermitWaitTimeoutError.js';
export { Semaphore, type PermitAcquireOptions } from './Semaphore.js';
export { SemaphoreBase } from './SemaphoreBase.js';
export { permitTimeoutsKey } from './permitExpirableKeys.js';
export { SEMAPHORE_KEY_LAYOUT, semaphoreChannelName } from './semaphoreKeys.js';
