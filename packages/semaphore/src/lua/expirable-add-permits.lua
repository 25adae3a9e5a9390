--- @include "@deadbolt/core/request-deadline"
-- Adds free permits to a permit-expirable semaphore (or, with a negative number, takes some away):
-- Redisson's RPermitExpirableSemaphore.addPermits(n), which reads, adds and SETs, dropping the
-- key's TTL (INCRBY then PERSIST does the same in exact integers; a missing key counts as 0), and
-- announces the number added, only when it is positive: Redisson's waiting threads release their
-- latch by the number a message names, which must not be negative. Once per request, never past
-- its deadline: a copy adds nothing more and answers the first outcome. Runs after
-- request-deadline.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the permits to add, negative to take some away
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  this request's deadline on the server's clock, in milliseconds
-- ARGV[4]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  the free permits afterwards (for a copy: after the first run). Raises DEADBOLT_LATE
--          past the deadline.
return once(KEYS[3], ARGV[3], ARGV[4], function()
  local value = redis.call('incrby', KEYS[1], ARGV[1])
  redis.call('persist', KEYS[1])
  if tonumber(ARGV[1]) > 0 then
    redis.call(ARGV[2], KEYS[2], ARGV[1])
  end
  return value
end)
