-- Adds permits to a semaphore (or, with a negative number, takes some away) and announces how
-- many are now available, which wakes the waiters of every client, Deadbolt's and Redisson's.
-- This is Redisson's RSemaphore.release(n), and its addPermits(n), which reads, adds and sets:
-- INCRBY does the same in one step, in exact integers, and counts a missing key as 0. So the
-- permits may go below zero; acquisitions then wait until releases bring them back up.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- ARGV[1]  the permits to add: at least 1 for a release, negative to take some away
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
--
-- Returns  the permits available afterwards.
local value = redis.call('incrby', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], value)
return value
