--- @include "@deadbolt/core/request-deadline"
--- @include "semaphore-holds"
-- Adds permits to a semaphore (or, with a negative number, takes some away) and announces how
-- many are now available, which wakes the waiters of every client, Deadbolt's and Redisson's.
-- This is Redisson's RSemaphore.release(n), an INCRBY that keeps the key's TTL, and its
-- addPermits(n), which reads, adds and SETs, dropping the TTL: INCRBY then PERSIST does the same
-- in exact integers, and counts a missing key as 0. So the permits may go below zero; acquisitions
-- then wait until releases bring them back up. Once per request, never past its deadline: a copy
-- adds nothing more and answers the first outcome. The holds are made to live as the semaphore
-- does, before (a missing semaphore's holds go with it, not to the key the INCRBY sets afresh) and
-- after (see semaphore-holds.lua). Runs after request-deadline.lua and semaphore-holds.lua.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  the semaphore's holds, deadbolt_holds:{name}: they live as the semaphore does
-- KEYS[4]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the permits to add: at least 1 for a release, negative to take some away
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  keep (a release: the semaphore keeps its TTL) or clear (addPermits: it loses it)
-- ARGV[4]  this request's deadline on the server's clock, in milliseconds
-- ARGV[5]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  the permits available afterwards (for a copy: after the first run). Raises
--          DEADBOLT_LATE past the deadline.
local CLEAR_TTL = 'clear'

return once(KEYS[4], ARGV[4], ARGV[5], function()
  keep_holds(KEYS[1], KEYS[3])
  local value = redis.call('incrby', KEYS[1], ARGV[1])
  if ARGV[3] == CLEAR_TTL then
    redis.call('persist', KEYS[1])
  end
  keep_holds(KEYS[1], KEYS[3])
  redis.call(ARGV[2], KEYS[2], value)
  return value
end)
