-- Deletes a fair lock whoever holds it, and wakes the waiter at the head of the queue. The queue
-- stays as it is. Runs after queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- ARGV[1]  message that wakes a waiter (0)
-- ARGV[2]  publish command: publish or spublish
-- ARGV[3]  now, the caller's wall clock in ms
-- ARGV[4]  waiterTimeout in ms: the most the head waiter is given to take the freed lock
--
-- Returns  1 when a lock was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 0 then
  return 0
end
wake_head(tonumber(ARGV[3]), tonumber(ARGV[4]), ARGV[2], ARGV[1])
return 1
