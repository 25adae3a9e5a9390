/**
 * Building blocks for lock kind authors (and authors of synchronizers built from locks, such as a
 * multilock): `@deadbolt/core/kit`. Adapter authors find theirs in `@deadbolt/core/adapter`;
 * applications need only `@deadbolt/core`. The guide "Writing a lock kind"
 * (docs/guides/writing-a-lock-kind.md) shows how they fit.
 *
 * @packageDocumentation
 */

// Declaring a lock kind and running it.
export type { AttemptContext, LockKind, WaitContext } from './lock/LockKind.js';
export { reentrantLockKind } from './lock/Lock.js';
export { heldLock } from './lock/HeldLock.js';
export type { HoldHandle, HoldLimit } from './lock/HoldHandle.js';
export { checkExtendOptions } from './lock/ExtendOptions.js';
export { confirmOrGiveBack, giveBackIfGone, giveBackQuietly, runAttempt } from './lock/acquisition/giveBack.js';
export { isLock } from './lock/isLock.js';
export { attemptAlone, type UnkeptHold } from './lock/attemptAlone.js';
export { watchLoss } from './lock/watchLoss.js';
export { OneAtATime } from './lock/OneAtATime.js';
export { pause } from './lock/pause.js';
export { lockRuntime, type LockRuntime } from './runtime/LockRuntime.js';
// The options as a client resolved them (`LockClient.options`): defaults applied.
export type { ResolvedLockClientOptions } from './client/LockClientOptions.js';
export type { ResolvedReplicaSyncOptions } from './replication/ReplicaSyncOptions.js';
export type { LockEvents } from './client/LockEvents.js';
export type { ChannelMark, ChannelSubscription } from './pubsub/ChannelHub.js';
export type { WakeRule } from './pubsub/WakeRule.js';
export { waitOnChannel, type ChannelWait } from './pubsub/waitOnChannel.js';
export {
  BACKOFF_JITTER,
  DEFAULT_BACKOFF,
  exponentialBackoff,
  type Backoff,
  type ExponentialBackoffOptions,
} from './lock/spinToAcquire.js';
export type { Interruptible } from './pubsub/ChannelEntry.js';
export type { Renewal, RenewalTarget } from './watchdog/RenewalScheduler.js';

// Scripts and typed commands.
export { defineScript, type Script } from './scripts/Script.js';
export {
  call,
  defineCommand,
  type Call,
  type Command,
  type CommandContext,
  type PublishCommand,
} from './scripts/Command.js';
// A script's ARGV, as commands build it and the executor passes it on (adapters use it too).
export type { ScriptArgument } from './executor/Executor.js';
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

// Keys, owners and argument checks shared by every kind (adapters check options with `checkOptions` too).
export {
  holdMarkersKey,
  LOCK_KEY_LAYOUT,
  lockChannelName,
  nameFromPrefixed,
  ownerField,
  prefixedName,
  requestRecordKey,
} from './keys/lockKeys.js';
export type { KeyLayout } from './keys/KeyLayout.js';
export { checkAcquireOptions, type CheckedAcquireOptions } from './lock/AcquireOptions.js';
export { releaseAfter } from './lock/releaseAfter.js';
export { currentOwner, runAsOwner } from './owner/ownerScope.js';
export { reserveOwner, type ReservedOwner } from './owner/generatedOwners.js';
export {
  checkCount,
  checkDuration,
  checkFunction,
  checkLockName,
  checkName,
  checkOptions,
  checkSignal,
  MAX_DURATION,
} from './options/validate.js';
