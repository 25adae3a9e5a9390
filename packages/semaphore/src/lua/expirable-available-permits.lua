--- @include "expirable-permits"
-- Reads the free permits of a permit-expirable semaphore after reclaiming those whose lease
-- ended: Redisson's RPermitExpirableSemaphore.availablePermits(). Runs after expirable-permits.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
--
-- Returns  the free permits (as the decimal string stored), 0 when the semaphore has no key.
reclaim_expired(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), ARGV[2])
local value = redis.call('get', KEYS[1])
if value == false then
  return 0
end
return value
