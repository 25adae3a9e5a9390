-- Takes every available permit at once, without announcing anything (nobody can acquire after
-- it): Redisson's RSemaphore.drainPermits().
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
--
-- Returns  the permits there were (as the decimal string stored; negative ones too), 0 when the
--          semaphore has no key (which is left missing).
local value = redis.call('get', KEYS[1])
if value == false then
  return 0
end
redis.call('set', KEYS[1], 0)
return value
