import type { RespValue } from '@deadbolt/test-harness';
import { READ_UNLOCK_MESSAGE } from './LockPubSub.js';
import { RedissonLock } from './RedissonLock.js';
import { prefixName, unlockLatchName } from './redissonNames.js';

// Takes the write lock when the lock is free, or re-enters it (the TTL grows by the lease).
// Replies nil when taken, else the lock's PTTL. KEYS: hash. ARGV: lease, writer field.
const WRITE_LOCK = `
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
  redis.call('hset', KEYS[1], 'mode', 'write')
  redis.call('hset', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if mode == 'write' and redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], redis.call('pttl', KEYS[1]) + tonumber(ARGV[1]))
  return nil
end
return redis.call('pttl', KEYS[1])`;

// Releases one write hold (latched per request). The last one removes the writer field: with no
// other field the hash is deleted and ARGV[1] published, else the lock stays as a read lock of the
// writer's read holds (nothing published). A lock already gone publishes and replies nil.
// KEYS: hash, channel, latch. ARGV: message, lease kept when holds remain, writer field, publish command, latch ms.
const WRITE_UNLOCK = `
local seen = redis.call('get', KEYS[3])
if seen then
  return tonumber(seen)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
  redis.call(ARGV[4], KEYS[2], ARGV[1])
  redis.call('set', KEYS[3], 1, 'px', ARGV[5])
  return nil
end
if mode ~= 'write' or redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[3], 0, 'px', ARGV[5])
  return 0
end
redis.call('hdel', KEYS[1], ARGV[3])
if redis.call('hlen', KEYS[1]) == 1 then
  redis.call('del', KEYS[1])
  redis.call(ARGV[4], KEYS[2], ARGV[1])
else
  redis.call('hset', KEYS[1], 'mode', 'read')
end
redis.call('set', KEYS[3], 1, 'px', ARGV[5])
return 1`;

// Deletes the lock when it is in write mode and publishes ARGV[1]. KEYS: hash, channel.
const FORCE_WRITE_UNLOCK = `
if redis.call('hget', KEYS[1], 'mode') ~= 'write' then
  return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1`;

/**
 * Redisson's `RedissonWriteLock`: the write half of an `RReadWriteLock`. Its field is
 * `<clientId>:<threadId>:write`; its unlock publishes `1` (wake every waiter) on
 * `redisson_rwlock:{name}`; taken without a lease time it is renewed by the {@link LockTask}.
 */
export class RedissonWriteLock extends RedissonLock {
  /** `redisson_rwlock:{name}`, shared with the read lock. */
  override get channelName(): string {
    return prefixName('redisson_rwlock', this.name);
  }

  /** The writer field, `<clientId>:<threadId>:write`. */
  override lockName(threadId: number): string {
    return `${super.lockName(threadId)}:write`;
  }

  protected override runTryLockInner(threadId: number, leaseTime: number): Promise<RespValue> {
    return this.peer.eval(WRITE_LOCK, [this.name], [leaseTime, this.lockName(threadId)]);
  }

  protected override runUnlockInner(threadId: number, requestId: string): Promise<RespValue> {
    const keys = [this.name, this.channelName, unlockLatchName(this.name, requestId)];
    const args = [
      READ_UNLOCK_MESSAGE,
      this.internalLockLeaseTime,
      this.lockName(threadId),
      this.peer.publishCommand,
      this.peer.config.unlockLatchTimeout,
    ];
    return this.peer.eval(WRITE_UNLOCK, keys, args);
  }

  override async forceUnlock(): Promise<boolean> {
    this.cancelExpirationRenewal(null, null);
    return (
      Number(
        await this.peer.eval(
          FORCE_WRITE_UNLOCK,
          [this.name, this.channelName],
          [READ_UNLOCK_MESSAGE, this.peer.publishCommand],
        ),
      ) === 1
    );
  }
}
