export type { CommandArguments, Executor, ExecutorListener, ScriptArgument } from './executor/Executor.js';
export {
  ClientClosedError,
  InvalidArgumentError,
  LockError,
  LockLostError,
  LockNotHeldError,
  LockWaitTimeoutError,
  RedisUnavailableError,
} from './errors/LockError.js';
export { ReplicaSyncError, type SyncedOperation } from './errors/ReplicaSyncError.js';
export { LockClient, type LockClientEvents, type LockLostEvent } from './client/LockClient.js';
export type { LockClientOptions, PubSubMode, ResolvedLockClientOptions } from './client/LockClientOptions.js';
export type { ReplicaSyncOptions, ResolvedReplicaSyncOptions } from './replication/ReplicaSyncOptions.js';
export { Lock } from './lock/Lock.js';
export { ReentrantLockBase, UNLOCK_MESSAGE } from './lock/ReentrantLockBase.js';
export { LockBase, type AttemptContext, type LockState, type WaitContext } from './lock/LockBase.js';
export type { AcquireOptions } from './lock/AcquireOptions.js';
export { HeldLock, type HoldDescription } from './lock/HeldLock.js';

// Building blocks for lock kinds (fair lock, read-write lock, ...) in other packages.
export { checkAcquireOptions, type CheckedAcquireOptions } from './lock/AcquireOptions.js';
export { waitToAcquire, type AcquireLoop } from './lock/waitToAcquire.js';
export { releaseAfter } from './lock/releaseAfter.js';
export { currentOwner, runAsOwner } from './owner/ownerScope.js';
export { reserveOwner, type ReservedOwner } from './owner/generatedOwners.js';
export { holdMarkersKey, lockChannelName, ownerField, prefixedName, unlockLatchKey } from './keys/lockKeys.js';
export { hashSlot } from './keys/hashSlot.js';
export { checkDuration, checkFunction, checkLockName, checkMethods, checkName, checkOptions, checkOwner, checkSignal, MAX_DURATION } from './options/validate.js';
export { defineScript, definedScripts, type Script } from './scripts/Script.js';
export { coreLua, coreScripts } from './scripts/coreScripts.js';
export type { ScriptRunner } from './scripts/ScriptRunner.js';
export type { ChannelHub, ChannelSubscription } from './pubsub/ChannelHub.js';
export type { RenewalScheduler, Renewal, RenewalTarget } from './watchdog/RenewalScheduler.js';
export type { ReplicaSync } from './replication/ReplicaSync.js';

// Building blocks for adapters.
export { SubscriberRouter, type Topology } from './adapter/SubscriberRouter.js';
export type { LinkEvents, SubscriberLink } from './adapter/SubscriberLink.js';
export { DriverLink } from './adapter/DriverLink.js';
export { DEFAULT_SUBSCRIBER_NAME, resolveAdapterOptions, type AdapterOptions } from './adapter/AdapterOptions.js';
