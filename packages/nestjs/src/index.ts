/**
 * Deadbolt for NestJS: `DeadboltModule` provides one `LockClient` to the application and closes
 * it on shutdown; `@WithLock` runs a method under a lock, whose signal `lockSignal()` gives.
 *
 * @packageDocumentation
 */
export { DeadboltModule, type DeadboltModuleAsyncOptions } from './DeadboltModule.js';
export type { DeadboltConnection, DeadboltModuleOptions } from './DeadboltModuleOptions.js';
export { WithLock, type WithLockOptions } from './WithLock.js';
export { lockSignal } from './lockSignal.js';
