-- Releases one hold of the write lock. The last one frees write mode and wakes every waiter at
-- once (the readers it kept out all get in together): the lock is deleted, or, when the owner
-- still holds read holds, turns into a read lock that lives as long as they do (a downgrade).
-- Runs after core's unlock-latch.lua and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- KEYS[3]  this release request's latch, redisson_unlock_latch:{name}:<requestId>
-- ARGV[1]  message to publish when write mode ends (1: wake every waiter)
-- ARGV[2]  lease in milliseconds to keep when write holds remain
-- ARGV[3]  writer field, <clientId>:<ownerId>:write
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the latch remembers the outcome, in milliseconds
--
-- Returns  nil when the owner does not hold the write lock (nothing changed); 0 when write holds
--          remain; 1 when write mode ended (a re-sent request: the first outcome).
local lock, writer = KEYS[1], ARGV[3]
return with_unlock_latch(KEYS[3], ARGV[5], function()
  if redis.call('hexists', lock, writer) == 0 then
    return nil
  end
  local longest = longest_read_hold(lock)
  if redis.call('hincrby', lock, writer, -1) > 0 then
    redis.call('pexpire', lock, math.max(tonumber(ARGV[2]), longest))
    return 0
  end
  if longest == -2 then
    redis.call('del', lock)
  else
    redis.call('hdel', lock, writer)
    redis.call('hset', lock, 'mode', 'read')
    if longest > 0 then
      redis.call('pexpire', lock, longest)
    end
  end
  redis.call(ARGV[4], KEYS[2], ARGV[1])
  return 1
end)
