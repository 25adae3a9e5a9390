export type { Executor, ExecutorListener, ScriptArgument } from './executor/Executor.js';
export {
  ClientClosedError,
  InvalidArgumentError,
  LockError,
  LockLostError,
  LockNotHeldError,
  LockWaitTimeoutError,
  RedisUnavailableError,
} from './errors/LockError.js';
export { LockClient, type LockClientEvents, type LockLostEvent } from './client/LockClient.js';
export type { LockClientOptions, PubSubMode, ResolvedLockClientOptions } from './client/LockClientOptions.js';
export { Lock, UNLOCK_MESSAGE } from './lock/Lock.js';
export { LockBase, type AttemptContext, type LockState } from './lock/LockBase.js';
export type { AcquireOptions } from './lock/AcquireOptions.js';
export { HeldLock, type HoldDescription } from './lock/HeldLock.js';

// Building blocks for lock kinds (fair lock, read-write lock, ...) in other packages.
export { checkAcquireOptions, type CheckedAcquireOptions } from './lock/AcquireOptions.js';
export { waitToAcquire, type AcquireLoop } from './lock/waitToAcquire.js';
export { currentOwner, runAsOwner } from './owner/ownerScope.js';
export { lockChannelName, ownerField, prefixedName, unlockLatchKey } from './keys/lockKeys.js';
export { hashSlot } from './keys/hashSlot.js';
export { checkDuration, checkLockName, checkName, checkOptions, checkOwner, checkSignal } from './options/validate.js';
export { defineScript, definedScripts, type Script } from './scripts/Script.js';
export { coreLua, coreScripts } from './scripts/coreScripts.js';
export type { ScriptRunner } from './scripts/ScriptRunner.js';
export type { ChannelHub, ChannelSubscription } from './pubsub/ChannelHub.js';
export type { RenewalScheduler, Renewal, RenewalTarget } from './watchdog/RenewalScheduler.js';

// Building blocks for adapters.
export { SubscriberRouter, type Topology } from './adapter/SubscriberRouter.js';
export type { LinkEvents, SubscriberLink } from './adapter/SubscriberLink.js';
export { DriverLink } from './adapter/DriverLink.js';
export { DEFAULT_SUBSCRIBER_NAME, resolveAdapterOptions, type AdapterOptions } from './adapter/AdapterOptions.js';
