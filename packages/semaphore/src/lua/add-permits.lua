-- Adds permits to a semaphore (or, with a negative number, takes some away) and announces how
-- many are now available, which wakes the waiters of every client, Deadbolt's and Redisson's.
-- This is Redisson's RSemaphore.release(n), and its addPermits(n), which reads, adds and sets:
-- INCRBY does the same in one step, in exact integers, and counts a missing key as 0. So the
-- permits may go below zero; acquisitions then wait until releases bring them back up. The
-- request's marker remembers the reply for a while, so that the request sent again in that time
-- adds nothing more and replies the same.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  this request's marker, deadbolt_permit_request:{name}:<request id>
-- ARGV[1]  the permits to add: at least 1 for a release, negative to take some away
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  how long the marker lives, in milliseconds
--
-- Returns  the permits available afterwards (for a request seen before: after its first run).
local first = redis.call('get', KEYS[3])
if first then
  return tonumber(first)
end
local value = redis.call('incrby', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], value)
redis.call('set', KEYS[3], value, 'px', ARGV[3])
return value
