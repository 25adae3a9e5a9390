--- @include "@deadbolt/core/same-holders"
-- Deletes a spin lock, with its hold markers, if its holders are still the ones the operator was
-- shown; announces nothing (Redisson's RSpinLock.forceUnlock: its waiters poll). Runs once per
-- request (a copy answers the first outcome) and never past its deadline. Runs after
-- core's same-holders.lua, which defines once() and same_holders().
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  this request's deadline on the server's clock, in milliseconds
-- ARGV[2]  how long past the deadline its record lives, in milliseconds
-- ARGV[3…] the lock hash as read when the operator asked: field, value, field, value, …
--
-- Returns  1 when the lock was deleted; 0 when it was gone or held otherwise than as read.
--          Raises DEADBOLT_LATE past the deadline.
return once(KEYS[3], ARGV[1], ARGV[2], function()
  if redis.call('exists', KEYS[1]) == 0 or not same_holders(KEYS[1], 3) then
    return 0
  end
  redis.call('del', KEYS[1], KEYS[2])
  return 1
end)
