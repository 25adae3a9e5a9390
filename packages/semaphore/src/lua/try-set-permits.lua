--- @include "@deadbolt/core/request-deadline"
--- @include "semaphore-holds"
-- Sets a semaphore's permits when it has none set yet: Redisson's RSemaphore.trySetPermits(n)
-- (and RPermitExpirableSemaphore's, the same script). Once per request, never past its deadline:
-- a copy (its first reply lost) answers what the first run did, not "set already". The holds of
-- a Semaphore are made to live as the semaphore does (see semaphore-holds.lua): a missing
-- semaphore took its held permits with it, so the key set afresh starts without holds. Runs after
-- request-deadline.lua and semaphore-holds.lua.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  the semaphore's holds, deadbolt_holds:{name} (a PermitExpirableSemaphore has none)
-- KEYS[4]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the permits to set, 0 or more
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  this request's deadline on the server's clock, in milliseconds
-- ARGV[4]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  1 when set (and announced on the channel), 0 when the key exists (nothing changed but
--          the holds' life). Raises DEADBOLT_LATE past the deadline.
return once(KEYS[4], ARGV[3], ARGV[4], function()
  if keep_holds(KEYS[1], KEYS[3]) ~= SEMAPHORE_MISSING then
    return 0
  end
  redis.call('set', KEYS[1], ARGV[1])
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end)
