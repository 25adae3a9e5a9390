-- Gives back what one acquisition took, by its request id, and announces the permits now
-- available: the release of held permits, and the give-back of an acquisition that failed or was
-- abandoned, which may or may not have run. Either way the acquisition is marked 'returned' for a
-- while, so that this request sent again gives back nothing more, and so that a copy of the
-- acquisition that reaches Redis after its give-back takes nothing (a tombstone). What Redisson's
-- release does to the permits (INCRBY, then a publish of the new count); the marker is Deadbolt's.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- KEYS[3]  the acquisition's request marker, deadbolt_permit_request:{name}:<request id>
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  how long the 'returned' mark lives, in milliseconds
--
-- Returns  the permits given back: what the acquisition took, or 0 when it took nothing or they
--          were given back already (nothing changed but the mark).
local marker = redis.call('get', KEYS[3])
if marker == 'returned' then
  return 0
end
redis.call('set', KEYS[3], 'returned', 'px', ARGV[2])
if not marker then
  return 0
end
local value = redis.call('incrby', KEYS[1], marker)
redis.call(ARGV[1], KEYS[2], value)
return tonumber(marker)
