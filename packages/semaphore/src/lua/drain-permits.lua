--- @include "@deadbolt/core/request-deadline"
--- @include "semaphore-holds"
-- Takes every available permit at once, without announcing anything (nobody can acquire after
-- it): Redisson's RSemaphore.drainPermits(), whose SET drops the key's TTL. Once per request,
-- never past its deadline: a copy drains nothing more and answers the first outcome. The holds
-- are made to live as the semaphore does, before (dropped when it is missing) and after (see
-- semaphore-holds.lua). Runs after request-deadline.lua and semaphore-holds.lua.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's holds, deadbolt_holds:{name}: they live as the semaphore does
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  this request's deadline on the server's clock, in milliseconds
-- ARGV[2]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  the permits there were (negative ones too), 0 when the semaphore has no key (which is
--          left missing); for a copy, what the first run replied. Raises DEADBOLT_LATE past the
--          deadline.
return once(KEYS[3], ARGV[1], ARGV[2], function()
  if keep_holds(KEYS[1], KEYS[2]) == SEMAPHORE_MISSING then
    return 0
  end
  local value = redis.call('get', KEYS[1])
  redis.call('set', KEYS[1], 0)
  keep_holds(KEYS[1], KEYS[2])
  return tonumber(value)
end)
