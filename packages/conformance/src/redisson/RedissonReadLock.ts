import type { RespValue } from '@deadbolt/test-harness';
import { UNLOCK_MESSAGE } from './LockPubSub.js';
import { RedissonLock } from './RedissonLock.js';
import { prefixName, suffixName, unlockLatchName } from './redissonNames.js';

// Takes a read hold: in a free lock (mode read, the field's first hold), in read mode, or in write
// mode when the same thread holds the write lock. Hold n gets its own key <timeout prefix>:<n>
// living `lease`; a new lock's hash lives `lease`, an existing one max(its PTTL, lease).
// Replies nil when taken, else the lock's PTTL.
// KEYS: hash, timeout prefix {name}:<field>:rwlock_timeout. ARGV: lease, field, the thread's writer field.
const READ_LOCK = `
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
  redis.call('hset', KEYS[1], 'mode', 'read')
  redis.call('hset', KEYS[1], ARGV[2], 1)
  redis.call('set', KEYS[2] .. ':1', 1, 'px', ARGV[1])
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
if mode == 'read' or (mode == 'write' and redis.call('hexists', KEYS[1], ARGV[3]) == 1) then
  local n = redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('set', KEYS[2] .. ':' .. n, 1, 'px', ARGV[1])
  redis.call('pexpire', KEYS[1], math.max(redis.call('pttl', KEYS[1]), tonumber(ARGV[1])))
  return nil
end
return redis.call('pttl', KEYS[1])`;

// Releases the thread's latest read hold (latched per request). With other fields left, the hash
// then lives as long as the longest per-hold timeout key of any field (every counted hold of every
// field, the writer's included); when none is live the hash stays in write mode or is deleted.
// Deleting publishes ARGV[1]; a lock already gone publishes too and replies nil.
// KEYS: hash, channel, timeout prefix, key prefix ({name}), latch. ARGV: message, field, publish command, latch ms.
const READ_UNLOCK = `
local seen = redis.call('get', KEYS[5])
if seen then
  return tonumber(seen)
end
local mode = redis.call('hget', KEYS[1], 'mode')
if not mode then
  redis.call(ARGV[3], KEYS[2], ARGV[1])
  redis.call('set', KEYS[5], 1, 'px', ARGV[4])
  return nil
end
if redis.call('hexists', KEYS[1], ARGV[2]) == 0 then
  return nil
end
local left = redis.call('hincrby', KEYS[1], ARGV[2], -1)
if left == 0 then
  redis.call('hdel', KEYS[1], ARGV[2])
end
redis.call('del', KEYS[3] .. ':' .. (left + 1))
if redis.call('hlen', KEYS[1]) > 1 then
  local longest = -3
  for _, field in ipairs(redis.call('hkeys', KEYS[1])) do
    local holds = tonumber(redis.call('hget', KEYS[1], field))
    if holds then
      for n = holds, 1, -1 do
        longest = math.max(longest, redis.call('pttl', KEYS[4] .. ':' .. field .. ':rwlock_timeout:' .. n))
      end
    end
  end
  if longest > 0 then
    redis.call('pexpire', KEYS[1], longest)
    redis.call('set', KEYS[5], 0, 'px', ARGV[4])
    return 0
  end
  if mode == 'write' then
    redis.call('set', KEYS[5], 0, 'px', ARGV[4])
    return 0
  end
end
redis.call('del', KEYS[1])
redis.call(ARGV[3], KEYS[2], ARGV[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[4])
return 1`;

// Deletes the lock when it is in read mode and publishes ARGV[1]. KEYS: hash, channel.
const FORCE_READ_UNLOCK = `
if redis.call('hget', KEYS[1], 'mode') ~= 'read' then
  return 0
end
redis.call('del', KEYS[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1`;

/**
 * Redisson's `RedissonReadLock`: the read half of an `RReadWriteLock`. Reader fields are
 * `<clientId>:<threadId>`; each read hold n has a key `{name}:<field>:rwlock_timeout:<n>` carrying
 * its lease; the channel is `redisson_rwlock:{name}`. A read lock taken without a lease time is
 * renewed by the client's {@link ReadLockTask}, which also resets the hash's TTL to
 * `lockWatchdogTimeout`.
 */
export class RedissonReadLock extends RedissonLock {
  /** `redisson_rwlock:{name}`, shared with the write lock. */
  override get channelName(): string {
    return prefixName('redisson_rwlock', this.name);
  }

  /** The same thread's writer field, `<clientId>:<threadId>:write`. */
  writeLockName(threadId: number): string {
    return `${this.lockName(threadId)}:write`;
  }

  /** `{name}:<clientId>:<threadId>:rwlock_timeout`: the prefix of the thread's per-hold keys. */
  timeoutPrefix(threadId: number): string {
    return `${suffixName(this.name, this.lockName(threadId))}:rwlock_timeout`;
  }

  /** What precedes `:<field>` in the timeout prefix: `{name}` (or the name when it has a brace). */
  keyPrefix(threadId: number): string {
    const prefix = this.timeoutPrefix(threadId);
    return prefix.slice(0, prefix.indexOf(`:${this.lockName(threadId)}`));
  }

  protected override runTryLockInner(threadId: number, leaseTime: number): Promise<RespValue> {
    return this.peer.eval(
      READ_LOCK,
      [this.name, this.timeoutPrefix(threadId)],
      [leaseTime, this.lockName(threadId), this.writeLockName(threadId)],
    );
  }

  protected override runUnlockInner(threadId: number, requestId: string): Promise<RespValue> {
    const keys = [
      this.name,
      this.channelName,
      this.timeoutPrefix(threadId),
      this.keyPrefix(threadId),
      unlockLatchName(this.name, requestId),
    ];
    return this.peer.eval(READ_UNLOCK, keys, [
      UNLOCK_MESSAGE,
      this.lockName(threadId),
      this.peer.publishCommand,
      this.peer.config.unlockLatchTimeout,
    ]);
  }

  override async forceUnlock(): Promise<boolean> {
    this.cancelExpirationRenewal(null, null);
    return (
      Number(
        await this.peer.eval(
          FORCE_READ_UNLOCK,
          [this.name, this.channelName],
          [UNLOCK_MESSAGE, this.peer.publishCommand],
        ),
      ) === 1
    );
  }

  /** The {@link ReadLockTask} renews this thread's holds and the hash. */
  protected override scheduleExpirationRenewal(threadId: number): void {
    this.peer.renewals.readLockTask.add(this.name, this.lockName(threadId), threadId, this.keyPrefix(threadId));
  }

  protected override cancelExpirationRenewal(threadId: number | null, unlockResult: boolean | null): void {
    super.cancelExpirationRenewal(threadId, unlockResult);
    this.peer.renewals.readLockTask.cancelExpirationRenewal(this.name, threadId);
  }
}
