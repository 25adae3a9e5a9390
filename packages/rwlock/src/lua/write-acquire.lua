-- Takes the write lock, or re-enters it for the owner that holds it. Runs after read-holds.lua.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  writer field, <clientId>:<ownerId>:write
-- ARGV[3]  the same owner's reader field, <clientId>:<ownerId>
--
-- Returns  nil when the lock was taken or re-entered (the writer field counts one more hold; the
--          hash lives for the lease, or as long as the owner's longest read hold);
--          -3 when the owner holds live read holds and not the write lock: an upgrade, which no
--          wait could ever grant, since the write lock waits for every reader to leave;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
local lock, lease, writer, reader = KEYS[1], tonumber(ARGV[1]), ARGV[2], ARGV[3]
local mode = redis.call('hget', lock, 'mode')
if mode == false and redis.call('exists', lock) == 0 then
  redis.call('hset', lock, 'mode', 'write', writer, 1)
  redis.call('pexpire', lock, lease)
  return nil
end
if mode == 'write' and redis.call('hexists', lock, writer) == 1 then
  redis.call('hincrby', lock, writer, 1)
  redis.call('pexpire', lock, math.max(lease, longest_read_hold(lock)))
  return nil
end
local count = tonumber(redis.call('hget', lock, reader))
if mode == 'read' and count and longest_hold_of(lock, reader, count) ~= -2 then
  return -3
end
return redis.call('pttl', lock)
