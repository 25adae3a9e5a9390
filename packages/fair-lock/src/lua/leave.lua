--- @include "@deadbolt/core/request-deadline"
--- @include "queue"
-- A waiter stops waiting without the lock (it timed out, was aborted or failed): it leaves the
-- queue at once, and the deadlines of the waiters behind it move up by its allowance, though
-- none to less than waiterTimeout from now. When it was first in line for a free lock, the next
-- waiter is woken in its place. Runs once per request (a copy answers the first outcome) and
-- never past its deadline, so that no copy takes out the same owner queued again by a later
-- acquisition. Runs after core's request-deadline.lua (once()) and queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- KEYS[5]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  owner field of the leaving waiter, <clientId>:<ownerId>
-- ARGV[2]  its allowance in ms (see acquire.lua)
-- ARGV[3]  now, the caller's wall clock in ms
-- ARGV[4]  waiterTimeout in ms
-- ARGV[5]  publish command: publish or spublish
-- ARGV[6]  message that wakes a waiter (0)
-- ARGV[7]  this request's deadline on the server's clock, in milliseconds
-- ARGV[8]  how long past the deadline its record lives, in milliseconds
--
-- Returns  1 when the waiter was in the queue, 0 when it was not (granted or dropped meanwhile).
--          Raises DEADBOLT_LATE past the deadline.
local field = ARGV[1]
local allowance = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local limit = tonumber(ARGV[4])

return once(KEYS[5], ARGV[7], ARGV[8], function()
  local queue = redis.call('lrange', KEYS[2], 0, -1)
  local at
  for i, waiter in ipairs(queue) do
    if waiter == field then
      at = i
      break
    end
  end
  redis.call('zrem', KEYS[3], field)
  if not at then
    return 0
  end
  redis.call('lrem', KEYS[2], 1, field)

  local floor = now + limit
  for i = at + 1, #queue do
    local deadline = tonumber(redis.call('zscore', KEYS[3], queue[i]))
    if deadline and deadline > floor then
      redis.call('zadd', KEYS[3], math.max(deadline - allowance, floor), queue[i])
    end
  end
  if at == 1 and redis.call('exists', KEYS[1]) == 0 then
    wake_head(now, limit, ARGV[5], ARGV[6])
  end
  return 1
end)
