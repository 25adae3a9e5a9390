-- Reads a lock's hash as it stands, for a force-unlock to compare with (see same-holders.lua).
--
-- KEYS[1]  the lock hash
-- ARGV     none
--
-- Returns  the hash's fields and values, alternating (empty when there is no lock).
return redis.call('hgetall', KEYS[1])
