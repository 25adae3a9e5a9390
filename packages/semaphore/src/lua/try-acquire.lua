-- Takes permits from a semaphore, all of them or none: Redisson's RSemaphore.tryAcquire(n). A
-- waiter never holds part of what it asked for, so two waiters for many permits cannot
-- deadlock by each holding half. Every attempt of one acquisition carries the same request id,
-- and the permits it takes are marked under that id until they are given back, so a request the
-- driver sends again, however late, takes nothing more.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the acquisition's request marker, deadbolt_permit_request:{name}:<request id>: the
--          permits it took (no expiry: it lives while they are held), or 'returned' once they
--          were given back or the acquisition was given up (expires: see return-permits.lua)
-- ARGV[1]  how many permits to take, at least 1
--
-- Returns  1 when taken (the count went down by ARGV[1]), also when this request took them
--          already (nothing changes); 0 when fewer are available (nothing changed; a missing key
--          has none); -1 when the acquisition was given back already (nothing taken).
local marker = redis.call('get', KEYS[2])
if marker == 'returned' then
  return -1
end
if marker then
  return 1
end
local value = redis.call('get', KEYS[1])
if value ~= false and tonumber(value) >= tonumber(ARGV[1]) then
  redis.call('decrby', KEYS[1], ARGV[1])
  redis.call('set', KEYS[2], ARGV[1])
  return 1
end
return 0
