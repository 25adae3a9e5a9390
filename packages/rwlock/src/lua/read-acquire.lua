-- Takes a read hold: granted unless another owner holds the write lock. Runs after core's
-- hold-markers.lua and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  lease in milliseconds of this hold
-- ARGV[2]  reader field, <clientId>:<ownerId>
-- ARGV[3]  the same owner's writer field, <clientId>:<ownerId>:write (its write hold lets it read)
-- ARGV[4]  this attempt's hold id, <instance>:<n>
--
-- Returns  nil when the hold was taken (or this very attempt had counted already: a re-sent
--          request counts once): the reader field counts one more hold, n, whose key
--          <tag>:<field>:rwlock_timeout:<n> lives for the lease, and the hash at least as long;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
local lock, markers, lease, field, hold = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[4]
if is_marked(lock, markers, field, hold) then
  return nil
end
local mode = redis.call('hget', lock, 'mode')
local free = mode == false and redis.call('exists', lock) == 0
if not (free or mode == 'read' or (mode == 'write' and redis.call('hexists', lock, ARGV[3]) == 1)) then
  return redis.call('pttl', lock)
end
if free then
  redis.call('del', markers)
  redis.call('hset', lock, 'mode', 'read')
end
local n = redis.call('hincrby', lock, field, 1)
if n == 1 then
  -- Marks of this owner's earlier holds that ended unseen (expired) must not stand for new ones.
  forget_marks_of(markers, field)
end
redis.call('set', hold_key(lock, field, n), 1, 'px', lease)
extend_to(lock, lease)
mark(lock, markers, field, hold)
return nil
