--- @include "@deadbolt/core/release-once"
--- @include "semaphore-holds"
-- Gives back what one acquisition attempt took, by its hold id, and announces the permits now
-- available: the release of held permits, and the give-back of an attempt whose outcome its
-- client did not learn, which may have run, or may still arrive. Once per attempt: the outcome is
-- kept in the attempt's request record (see release-once.lua), so a copy of this request gives
-- back nothing more and answers the first outcome, and an attempt that arrives after its
-- give-back finds its record claimed and takes nothing. What Redisson's release does to the
-- permits (INCRBY, then a publish of the new count), but only for permits marked held: a
-- semaphore that is missing took its permits with it, so its holds are dropped and nothing is
-- given back (the key is not set afresh). The holds are first made to live as the semaphore does
-- (see semaphore-holds.lua). Runs after release-once.lua (with request-deadline.lua) and
-- semaphore-holds.lua.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  the attempt's request record, deadbolt_request:{name}:<hold id>
-- KEYS[4]  the semaphore's holds, deadbolt_holds:{name}
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  the attempt's hold id, <instance>:<n>
-- ARGV[3]  how long the record keeps the outcome, in milliseconds
--
-- Returns  the permits given back; nil when the attempt holds none (it took none, they were given
--          back already, its mark expired, or the semaphore is missing: nothing changed but the
--          record and the holds' life). For a copy: the first outcome.
local ttl = keep_holds(KEYS[1], KEYS[4])

return release_once(KEYS[3], ARGV[3], function()
  if ttl == SEMAPHORE_MISSING then
    return nil
  end
  local permits = redis.call('hget', KEYS[4], ARGV[2])
  if not permits then
    return nil
  end
  redis.call('hdel', KEYS[4], ARGV[2])
  redis.call(ARGV[1], KEYS[2], redis.call('incrby', KEYS[1], permits))
  return tonumber(permits)
end)
