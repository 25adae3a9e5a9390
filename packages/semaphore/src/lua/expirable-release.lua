--- @include "expirable-permits"
--- @include "@deadbolt/core/release-once"
-- Gives back the permits held under the ids given: Redisson's RPermitExpirableSemaphore.tryRelease.
-- Permits whose lease ended are reclaimed first, so an id whose lease ran out is not given back
-- twice; nor is an id released already. It announces what Redisson's release does: the free
-- count after giving back one id (tryRelease(id)), the number given back for several
-- (tryRelease(ids)). Once per request: the outcome is kept in the request's record (see
-- release-once.lua), so a copy answers the first outcome (not "none held"), and when the record is
-- an acquisition attempt's (the release of held permits, or the give-back of an attempt whose
-- outcome was not learned), that attempt, arriving later, takes nothing. Runs after
-- expirable-permits.lua and release-once.lua (with request-deadline.lua).
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- KEYS[4]  the request's record, deadbolt_request:{name}:<id>: the acquisition attempt's for held
--          permits, else one of this request's own
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the permit ids, hex, separated by spaces
-- ARGV[4]  how long the record keeps the outcome, in milliseconds
--
-- Returns  how many of the ids were held (and are now free again); nil when none was (nothing
--          changed but the record). For a copy: the first outcome.
return release_once(KEYS[4], ARGV[4], function()
  reclaim_expired(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), ARGV[2])
  local members = permit_members(ARGV[3])
  local removed = remove_members(KEYS[2], members)
  if removed == 0 then
    return nil
  end
  local value = redis.call('incrby', KEYS[1], removed)
  if #members == 1 then
    redis.call(ARGV[2], KEYS[3], value)
  else
    redis.call(ARGV[2], KEYS[3], removed)
  end
  return removed
end)
