-- Takes permits of a permit-expirable semaphore under the ids given, all of them or none:
-- Redisson's RPermitExpirableSemaphore.tryAcquire(n, leaseTime). Permits whose lease ended are
-- reclaimed first. A waiter never holds part of what it asked for. Runs after
-- expirable-permits.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout: permit id bytes scored by the end of their lease
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the ids to take the permits under, hex, separated by spaces; one per permit
-- ARGV[4]  the lease in milliseconds: each permit's score is now + lease
--
-- Returns  {1} when taken, also when the first id is held already (a re-sent request counts
--          once); {0, score} when too few are free and a held permit's lease ends at score
--          (the earliest, wall-clock ms), when a waiter should try again; {0} when too few are
--          free and no held permit expires.
local now = tonumber(ARGV[1])
reclaim_expired(KEYS[1], KEYS[2], KEYS[3], now, ARGV[2])
local members = permit_members(ARGV[3])
if redis.call('zscore', KEYS[2], members[1]) then
  return {1}
end
local value = redis.call('get', KEYS[1])
if value ~= false and tonumber(value) >= #members then
  redis.call('decrby', KEYS[1], #members)
  local expiry = now + tonumber(ARGV[4])
  for _, member in ipairs(members) do
    redis.call('zadd', KEYS[2], expiry, member)
  end
  -- A semaphore given a TTL takes its held permits with it, as Redisson's acquire does.
  local ttl = redis.call('pttl', KEYS[1])
  if ttl > 0 then
    redis.call('pexpire', KEYS[2], ttl)
  end
  return {1}
end
local earliest = redis.call('zrange', KEYS[2], 0, 0, 'WITHSCORES')
if earliest[2] ~= nil and tonumber(earliest[2]) < NEVER then
  return {0, earliest[2]}
end
return {0}
