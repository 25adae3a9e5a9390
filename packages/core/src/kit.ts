/**
 * Building blocks for lock kind authors and adapter authors: `@deadbolt/core/kit`. Applications
 * need only `@deadbolt/core`. The guide "Writing a lock kind" (docs/guides/writing-a-lock-kind.md)
 * shows how they fit.
 *
 * @packageDocumentation
 */

// Declaring a lock kind and running it.
export type { AttemptContext, LockKind, WaitContext } from './lock/LockKind.js';
export { reentrantLockKind } from './lock/Lock.js';
export { heldLock, type HoldHandle } from './lock/HeldLock.js';
export { giveBackIfGone, giveBackQuietly, runAttempt } from './lock/acquisition/giveBack.js';
export { isLock } from './lock/isLock.js';
export { attemptAlone, type UnkeptHold } from './lock/attemptAlone.js';
export { pause } from './lock/pause.js';
export { lockRuntime, type LockRuntime } from './runtime/LockRuntime.js';
// The options as a client resolved them (`LockClient.options`): defaults applied.
export type { ResolvedLockClientOptions } from './client/LockClientOptions.js';
export type { ResolvedReplicaSyncOptions } from './replication/ReplicaSyncOptions.js';
export type { LockEvents } from './client/LockEvents.js';
export type { ChannelSubscription } from './pubsub/ChannelHub.js';
export { LOCK_WAKES, type WakeRule } from './pubsub/WakeRule.js';
export { waitOnChannel, type ChannelWait } from './pubsub/waitOnChannel.js';
export {
  BACKOFF_JITTER,
  DEFAULT_BACKOFF,
  exponentialBackoff,
  type Backoff,
  type ExponentialBackoffOptions,
} from './lock/spinToAcquire.js';
export type { Interruptible } from './pubsub/ChannelEntry.js';
export {
  LocalHandoffs,
  type Claim,
  type HandoffStreak,
  type LocalHandoffLimits,
  type LocalWaiter,
} from './handoff/LocalHandoffs.js';
export type { Renewal, RenewalTarget } from './watchdog/RenewalScheduler.js';

// Scripts and typed commands.
export { defineScript, definedScripts, type Script } from './scripts/Script.js';
export {
  call,
  defineCommand,
  type Call,
  type Command,
  type CommandContext,
  type PublishCommand,
} from './scripts/Command.js';
export { coreLua } from './scripts/coreScripts.js';
export { lockCommands } from './commands/lockCommands.js';
export { renewBatchCommand, type RenewBatchInput, type RenewCommand } from './commands/renewBatch.js';
export type {
  ExtendInput,
  ForceReleaseInput,
  HandOffInput,
  HoldInput,
  LeasedHoldInput,
  LockInput,
  OwnerHold,
} from './commands/inputs.js';
export { holderArguments } from './commands/lockForceRelease.js';
export { decodeHash } from './commands/lockHolders.js';
export { requestNumber } from './commands/requestNumber.js';
export type { LockStateInput } from './commands/lockState.js';
export {
  decodeDone,
  decodeHandOff,
  decodeLockState,
  decodeNilOrTtl,
  decodePttl,
  decodeRelease,
  HANDOFF_RELEASED,
  handOffNotPassed,
  heldByOther,
  type AcquireReply,
  type HandOffReply,
  type LockState,
  type ReleaseReply,
} from './commands/replies.js';
export { UNLOCK_MESSAGE } from './commands/messages.js';

// Keys, owners and argument checks shared by every kind.
export { holdMarkersKey, lockChannelName, ownerField, prefixedName, requestRecordKey } from './keys/lockKeys.js';
export { hashSlot } from './keys/hashSlot.js';
export { checkAcquireOptions, type CheckedAcquireOptions } from './lock/AcquireOptions.js';
export { releaseAfter } from './lock/releaseAfter.js';
export { currentOwner, runAsOwner } from './owner/ownerScope.js';
export { reserveOwner, type ReservedOwner } from './owner/generatedOwners.js';
export {
  checkCount,
  checkDuration,
  checkFunction,
  checkLockName,
  checkMethods,
  checkName,
  checkOptions,
  checkOwner,
  checkSignal,
  MAX_DURATION,
} from './options/validate.js';

// Adapters.
export type { CommandArguments, ExecutorListener, ScriptArgument } from './executor/Executor.js';
export { SubscriberRouter, type Topology } from './adapter/SubscriberRouter.js';
export type { LinkEvents, SubscriberLink } from './adapter/SubscriberLink.js';
export { DriverLink } from './adapter/DriverLink.js';
export { DEFAULT_SUBSCRIBER_NAME, resolveAdapterOptions, type AdapterOptions } from './adapter/AdapterOptions.js';
