-- Gives back the permits held under the ids given and announces the count now free: Redisson's
-- RPermitExpirableSemaphore.tryRelease. Permits whose lease ended are reclaimed first, so an id
-- whose lease ran out is not given back twice; nor is an id released already. A driver may re-send
-- the request after a reconnect whose first run's reply was lost: the request's latch remembers
-- that first outcome, and a re-sent request returns it (not "none held"). Runs after
-- expirable-permits.lua and core's unlock-latch.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- KEYS[4]  this release request's latch, redisson_unlock_latch:{name}:<request id>
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the permit ids, hex, separated by spaces
-- ARGV[4]  how long the latch remembers the outcome, in milliseconds
--
-- Returns  how many of the ids were held (and are now free again); a request re-sent while its
--          latch remembers: the first outcome.
return with_unlock_latch(KEYS[4], tonumber(ARGV[4]), function()
  reclaim_expired(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), ARGV[2])
  local removed = remove_members(KEYS[2], permit_members(ARGV[3]))
  if removed > 0 then
    local value = redis.call('incrby', KEYS[1], removed)
    redis.call(ARGV[2], KEYS[3], value)
  end
  return removed
end)
