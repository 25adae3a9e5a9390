--- @include "@deadbolt/core/release-hold"
--- @include "read-holds"
-- Releases one hold of the write lock. The last one frees write mode and wakes every waiter at
-- once (the readers it kept out all get in together): the lock is deleted, or, when the owner
-- still holds read holds, turns into a read lock that lives as long as they do (a downgrade).
-- A write hold that remains keeps the lock's TTL as it is. Runs once per hold (release_once(),
-- with the acquisition's request record): a copy answers the first outcome. Runs after core's
-- release-hold.lua fragments (release_once(), unmark()) and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- KEYS[3]  the acquisition's request record, deadbolt_request:{name}:<hold id>
-- KEYS[4]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  message to publish when write mode ends (1: wake every waiter)
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  writer field, <clientId>:<ownerId>:write
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the record keeps the outcome, in milliseconds
--
-- Returns  nil when this hold does not stand (nothing changed); 0 when write holds remain; 1 when
--          write mode ended (for a copy: the first outcome).
local lock, markers, writer = KEYS[1], KEYS[4], ARGV[3]
return release_once(KEYS[3], ARGV[5], function()
  if redis.call('hexists', lock, writer) == 0 or not unmark(markers, writer, ARGV[2]) then
    return nil
  end
  if redis.call('hincrby', lock, writer, -1) > 0 then
    return 0
  end
  local longest = longest_read_hold(lock)
  if longest == -2 then
    redis.call('del', lock, markers)
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
