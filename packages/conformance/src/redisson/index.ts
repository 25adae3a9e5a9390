// A Redisson client's behaviour on the wire, for interop tests: see RedissonPeer.
export { LockEntry, LockPubSub, READ_UNLOCK_MESSAGE, UNLOCK_MESSAGE } from './LockPubSub.js';
export { LockRenewalScheduler } from './LockRenewalScheduler.js';
export { LockTask } from './LockTask.js';
export { ReadLockTask } from './ReadLockTask.js';
export { RenewalEntry, RenewalTask, type RenewalHost } from './RenewalTask.js';
export { REDISSON_DEFAULTS, type RedissonConfig, type RedissonSubscriptionMode, type ResolvedRedissonConfig } from './RedissonConfig.js';
export { RedissonFairLock } from './RedissonFairLock.js';
export { RedissonFencedLock } from './RedissonFencedLock.js';
export { IllegalMonitorStateError, RedissonLock, type TryLockOptions } from './RedissonLock.js';
export { PeerShutdownError, RedissonPeer } from './RedissonPeer.js';
export { RedissonReadLock } from './RedissonReadLock.js';
export { RedissonReadWriteLock } from './RedissonReadWriteLock.js';
export { RedissonWriteLock } from './RedissonWriteLock.js';
export { prefixName, suffixName, unlockLatchName } from './redissonNames.js';
export { Semaphore } from './Semaphore.js';
export { useRedissonPeers, type RedissonPeers } from './useRedissonPeers.js';
