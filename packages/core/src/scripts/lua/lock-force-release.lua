--- @include "same-holders"
-- Deletes a lock, with its hold markers, if its holders are still the ones the operator was
-- shown, and wakes one waiter. Runs once per request (a copy answers the first outcome) and never
-- past its deadline. Runs after request-deadline.lua and same-holders.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_lock__channel:{name}
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  message to publish (0: wake one waiter)
-- ARGV[2]  publish command: publish or spublish
-- ARGV[3]  this request's deadline on the server's clock, in milliseconds
-- ARGV[4]  how long past the deadline its record lives, in milliseconds
-- ARGV[5…] the lock hash as read when the operator asked: field, value, field, value, …
--
-- Returns  1 when the lock was deleted; 0 when it was gone or held otherwise than as read.
--          Raises DEADBOLT_LATE past the deadline.
return once(KEYS[4], ARGV[3], ARGV[4], function()
  if redis.call('exists', KEYS[1]) == 0 or not same_holders(KEYS[1], 5) then
    return 0
  end
  redis.call('del', KEYS[1], KEYS[3])
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end)
