-- Releases one hold of a reentrant lock; the last hold deletes it and wakes one waiter.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_lock__channel:{name}
-- KEYS[3]  this release request's latch, redisson_unlock_latch:{name}:<requestId>
-- ARGV[1]  message to publish when the lock is freed (0: wake one waiter)
-- ARGV[2]  lease in milliseconds to keep when holds remain
-- ARGV[3]  owner field, <clientId>:<ownerId>
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the latch remembers the outcome, in milliseconds
--
-- Returns  nil when the owner does not hold the lock (nothing changed);
--          0 when holds remain; 1 when the lock was freed.
-- The latch makes a re-sent request (a driver replaying it after a reconnect) return the first
-- outcome instead of nil.
local latched = redis.call('get', KEYS[3])
if latched then
  return tonumber(latched)
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
local result = 0
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
else
  redis.call('del', KEYS[1])
  redis.call(ARGV[4], KEYS[2], ARGV[1])
  result = 1
end
redis.call('set', KEYS[3], result, 'px', ARGV[5])
return result
