export { HeldPermits } from './HeldPermits.js';
export { PermitWaitTimeoutError } from './PermitWaitTimeoutError.js';
export { Semaphore, type PermitAcquireOptions } from './Semaphore.js';
export { semaphoreChannelName } from './semaphoreKeys.js';
