--- @include "@deadbolt/core/same-holders"
--- @include "queue"
-- Deletes a fair lock, with its hold markers, if its holders are still the ones the operator was
-- shown, and wakes the waiter at the head of the queue. The queue stays as it is. Runs once per
-- request (a copy answers the first outcome) and never past its deadline. Runs after
-- core's same-holders.lua (once() and same_holders()) and queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- KEYS[5]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[6]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  message that wakes a waiter (0)
-- ARGV[2]  publish command: publish or spublish
-- ARGV[3]  now, the caller's wall clock in ms
-- ARGV[4]  waiterTimeout in ms: the most the head waiter is given to take the freed lock
-- ARGV[5]  this request's deadline on the server's clock, in milliseconds
-- ARGV[6]  how long past the deadline its record lives, in milliseconds
-- ARGV[7…] the lock hash as read when the operator asked: field, value, field, value, …
--
-- Returns  1 when the lock was deleted; 0 when it was gone or held otherwise than as read.
--          Raises DEADBOLT_LATE past the deadline.
return once(KEYS[6], ARGV[5], ARGV[6], function()
  if redis.call('exists', KEYS[1]) == 0 or not same_holders(KEYS[1], 7) then
    return 0
  end
  redis.call('del', KEYS[1], KEYS[5])
  wake_head(tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[2], ARGV[1])
  return 1
end)
