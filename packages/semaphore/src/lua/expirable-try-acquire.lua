--- @include "expirable-permits"
--- @include "@deadbolt/core/request-deadline"
-- Takes permits of a permit-expirable semaphore under the ids given, all of them or none:
-- Redisson's RPermitExpirableSemaphore.tryAcquire(n, leaseTime), once per attempt and never past
-- the attempt's deadline. Permits whose lease ended are reclaimed first. A waiter never holds part
-- of what it asked for. The attempt claims its request record until its deadline, so a copy of it
-- (a driver's re-send, a late delivery) takes nothing, even after the permits were released; the
-- release of what it took, or its give-back, keeps that record for longer (see
-- release-once.lua). Runs after expirable-permits.lua and request-deadline.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout: permit id bytes scored by the end of their lease
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- KEYS[4]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the ids to take the permits under, hex, separated by spaces; one per permit
-- ARGV[4]  the lease in milliseconds: each permit's score is now + lease
-- ARGV[5]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  {1} when taken (for a copy, which changes nothing: while the first id is held); {0,
--          score} when too few are free (for a copy: when it took nothing) and a held permit's
--          lease ends at score (the earliest, wall-clock ms), when a waiter should try again; {0}
--          then when no held permit expires. Raises DEADBOLT_LATE past the deadline.
local semaphore, timeouts, channel, record = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now, publish, deadline = tonumber(ARGV[1]), ARGV[2], ARGV[5]
local members = permit_members(ARGV[3])

-- When to try again: the earliest lease end among the held permits, unless it never ends.
local function not_taken()
  local earliest = redis.call('zrange', timeouts, 0, 0, 'WITHSCORES')
  if earliest[2] ~= nil and tonumber(earliest[2]) < NEVER then
    return {0, earliest[2]}
  end
  return {0}
end

if not claim_request(record, deadline, refuse_if_late(deadline)) then
  if redis.call('zscore', timeouts, members[1]) then
    return {1}
  end
  return not_taken()
end
reclaim_expired(semaphore, timeouts, channel, now, publish)
local value = redis.call('get', semaphore)
if value == false or tonumber(value) < #members then
  return not_taken()
end
redis.call('decrby', semaphore, #members)
local expiry = now + tonumber(ARGV[4])
for _, member in ipairs(members) do
  redis.call('zadd', timeouts, expiry, member)
end
-- A semaphore given a TTL takes its held permits with it, as Redisson's acquire does.
local ttl = redis.call('pttl', semaphore)
if ttl > 0 then
  redis.call('pexpire', timeouts, ttl)
end
return {1}
