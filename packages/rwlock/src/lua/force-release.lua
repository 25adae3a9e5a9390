--- @include "@deadbolt/core/same-holders"
--- @include "read-holds"
-- Deletes a read-write lock, with the keys of its read holds and its hold markers, if it is held
-- in the given mode and its hash is still the one the operator was shown, and wakes waiters.
-- Runs once per request (a copy answers the first outcome) and never past its deadline. Runs
-- after core's same-holders.lua fragments and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the mode to free: read or write
-- ARGV[2]  message to publish (0: wake one waiter, 1: wake every waiter)
-- ARGV[3]  publish command: publish or spublish
-- ARGV[4]  this request's deadline on the server's clock, in milliseconds
-- ARGV[5]  how long past the deadline its record lives, in milliseconds
-- ARGV[6…] the lock hash as read when the operator asked: field, value, field, value, …
--
-- Returns  1 when the lock was held in that mode as read and is deleted; 0 when it was gone, held
--          in the other mode, or held otherwise than as read (nothing changed). Raises
--          DEADBOLT_LATE past the deadline.
local lock = KEYS[1]
return once(KEYS[4], ARGV[4], ARGV[5], function()
  if redis.call('hget', lock, 'mode') ~= ARGV[1] or not same_holders(lock, 6) then
    return 0
  end
  local entries = redis.call('hgetall', lock)
  for i = 1, #entries, 2 do
    local field, count = entries[i], tonumber(entries[i + 1])
    if count and is_reader_field(field) then
      for n = 1, count do
        redis.call('del', hold_key(lock, field, n))
      end
    end
  end
  redis.call('del', lock, KEYS[3])
  redis.call(ARGV[3], KEYS[2], ARGV[2])
  return 1
end)
