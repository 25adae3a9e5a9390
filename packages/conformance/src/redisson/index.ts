// A Redisson client's behaviour on the wire, for interop tests: see RedissonPeer.
export {
  CountDownLatchEntry,
  CountDownLatchPubSub,
  NEW_COUNT_MESSAGE,
  ZERO_COUNT_MESSAGE,
} from './CountDownLatchPubSub.js';
export { LockEntry, LockPubSub, READ_UNLOCK_MESSAGE, UNLOCK_MESSAGE } from './LockPubSub.js';
export { LockRenewalScheduler } from './LockRenewalScheduler.js';
export { LockTask } from './LockTask.js';
export { ReadLockTask } from './ReadLockTask.js';
export { RenewalEntry, RenewalTask, type RenewalHost } from './RenewalTask.js';
export {
  REDISSON_DEFAULTS,
  type RedissonConfig,
  type RedissonSubscriptionMode,
  type ResolvedRedissonConfig,
} from './RedissonConfig.js';
export { PublishSubscribe, type PubSubEntry } from './PublishSubscribe.js';
export { ReclosableLatch } from './ReclosableLatch.js';
export { RedissonCountDownLatch } from './RedissonCountDownLatch.js';
export { RedissonFairLock } from './RedissonFairLock.js';
export { RedissonFencedLock } from './RedissonFencedLock.js';
export { IllegalMonitorStateError, RedissonLock, type TryLockOptions } from './RedissonLock.js';
export { PeerShutdownError, RedissonPeer } from './RedissonPeer.js';
export { NON_EXPIRABLE_TIMEOUT, RedissonPermitExpirableSemaphore } from './RedissonPermitExpirableSemaphore.js';
export { RedissonReadLock } from './RedissonReadLock.js';
export { RedissonReadWriteLock } from './RedissonReadWriteLock.js';
export { IllegalArgumentError, RedissonSemaphore } from './RedissonSemaphore.js';
export { backOffPolicy, REDISSON_BACKOFF, RedissonSpinLock, type RedissonBackOff } from './RedissonSpinLock.js';
export { RedissonWriteLock } from './RedissonWriteLock.js';
export {
  countDownLatchChannelName,
  prefixName,
  semaphoreChannelName,
  suffixName,
  unlockLatchName,
} from './redissonNames.js';
export { Semaphore } from './Semaphore.js';
export { SemaphorePubSub } from './SemaphorePubSub.js';
export { useRedissonPeers, type RedissonPeers } from './useRedissonPeers.js';
