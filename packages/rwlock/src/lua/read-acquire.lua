-- Takes a read hold: granted unless another owner holds the write lock. Runs after
-- read-holds.lua.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  lease in milliseconds of this hold
-- ARGV[2]  reader field, <clientId>:<ownerId>
-- ARGV[3]  the same owner's writer field, <clientId>:<ownerId>:write (its write hold lets it read)
--
-- Returns  nil when the hold was taken: the reader field counts one more hold, n, whose key
--          <tag>:<field>:rwlock_timeout:<n> lives for the lease, and the hash at least as long;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
local lock, lease, field = KEYS[1], tonumber(ARGV[1]), ARGV[2]
local mode = redis.call('hget', lock, 'mode')
local free = mode == false and redis.call('exists', lock) == 0
if not (free or mode == 'read' or (mode == 'write' and redis.call('hexists', lock, ARGV[3]) == 1)) then
  return redis.call('pttl', lock)
end
if free then
  redis.call('hset', lock, 'mode', 'read')
end
local n = redis.call('hincrby', lock, field, 1)
redis.call('set', hold_key(lock, field, n), 1, 'px', lease)
extend_to(lock, lease)
return nil
