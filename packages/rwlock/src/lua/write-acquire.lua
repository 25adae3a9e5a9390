-- Takes the write lock, or re-enters it for the owner that holds it. Runs after core's
-- hold-markers.lua and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  writer field, <clientId>:<ownerId>:write
-- ARGV[3]  the same owner's reader field, <clientId>:<ownerId>
-- ARGV[4]  this attempt's hold id, <instance>:<n>
--
-- Returns  nil when the lock was taken or re-entered (the writer field counts one more hold, or
--          this very attempt had counted already: a re-sent request counts once);
--          -3 when the owner holds live read holds and not the write lock: an upgrade, which no
--          wait could ever grant, since the write lock waits for every reader to leave;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
local lock, markers, lease, writer, reader, hold = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
if is_marked(lock, markers, writer, hold) then
  return nil
end
local mode = redis.call('hget', lock, 'mode')
if mode == false and redis.call('exists', lock) == 0 then
  redis.call('del', markers)
  redis.call('hset', lock, 'mode', 'write', writer, 1)
  redis.call('pexpire', lock, lease)
  mark(lock, markers, writer, hold)
  return nil
end
if mode == 'write' and redis.call('hexists', lock, writer) == 1 then
  redis.call('hincrby', lock, writer, 1)
  extend_to(lock, lease)
  mark(lock, markers, writer, hold)
  return nil
end
local count = tonumber(redis.call('hget', lock, reader))
if mode == 'read' and count and longest_hold_of(lock, reader, count) ~= -2 then
  return -3
end
return redis.call('pttl', lock)
