-- Takes permits from a semaphore, all of them or none: Redisson's RSemaphore.tryAcquire(n). A
-- waiter never holds part of what it asked for, so two waiters for many permits cannot
-- deadlock by each holding half.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- ARGV[1]  how many permits to take, at least 1
--
-- Returns  1 when taken (the count went down by ARGV[1]), 0 when fewer are available (nothing
--          changed; a missing key has none).
local value = redis.call('get', KEYS[1])
if value ~= false and tonumber(value) >= tonumber(ARGV[1]) then
  redis.call('decrby', KEYS[1], ARGV[1])
  return 1
end
return 0
