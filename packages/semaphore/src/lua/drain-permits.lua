-- Takes every available permit at once, without announcing anything (nobody can acquire after
-- it): Redisson's RSemaphore.drainPermits(). The request's marker remembers the reply for a
-- while, so that the request sent again in that time drains nothing more and replies the same.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  this request's marker, deadbolt_permit_request:{name}:<request id>
-- ARGV[1]  how long the marker lives, in milliseconds
--
-- Returns  the permits there were (as the decimal string stored; negative ones too), 0 when the
--          semaphore has no key (which is left missing); for a request seen before, what its
--          first run replied.
local first = redis.call('get', KEYS[2])
if first then
  return first
end
local value = redis.call('get', KEYS[1])
if value == false then
  value = '0'
else
  redis.call('set', KEYS[1], 0)
end
redis.call('set', KEYS[2], value, 'px', ARGV[1])
return value
