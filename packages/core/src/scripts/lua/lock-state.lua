-- Reads a lock's state in one round trip, for the query methods.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  owner field whose hold count to read, <clientId>:<ownerId>
--
-- Returns  { remaining TTL in ms (-2: no lock, -1: no expiry), the owner's hold count (0: none) }
local count = redis.call('hget', KEYS[1], ARGV[1])
return { redis.call('pttl', KEYS[1]), tonumber(count) or 0 }
