/**
 * What applications use: the client, the reentrant lock, held locks and the errors. Lock kind and
 * adapter authors find their building blocks in `@deadbolt/core/kit`.
 *
 * @packageDocumentation
 */
export type { Executor } from './executor/Executor.js';
export {
  ClientClosedError,
  InvalidArgumentError,
  LockError,
  LockLostError,
  LockNotHeldError,
  type LockLossReason,
  LockWaitTimeoutError,
  RedisUnavailableError,
} from './errors/LockError.js';
export { ReplicaSyncError, type SyncedOperation } from './errors/ReplicaSyncError.js';
export { PermissionDeniedError } from './errors/PermissionDeniedError.js';
export { EvictionRiskError } from './errors/EvictionRiskError.js';
export { UnsupportedServerError } from './errors/UnsupportedServerError.js';
export { LockClient } from './client/LockClient.js';
export type { LockClientEvents, LockLostEvent } from './client/LockClientEvents.js';
export type { LockClientActivity } from './client/ClientRuntime.js';
export type { LockClientOptions, PubSubMode } from './client/LockClientOptions.js';
export type { ReplicaSyncOptions } from './replication/ReplicaSyncOptions.js';
export type { LocalHandoffOptions } from './handoff/LocalHandoffOptions.js';
export type { LockHost } from './runtime/LockRuntime.js';
export { Lock } from './lock/Lock.js';
export { LockBase } from './lock/LockBase.js';
export type { AcquireOptions } from './lock/AcquireOptions.js';
export type { ForceUnlockOptions } from './lock/ForceUnlockOptions.js';
export { HeldLock } from './lock/HeldLock.js';
export type { ExtendOptions } from './lock/ExtendOptions.js';
