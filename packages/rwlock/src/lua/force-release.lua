-- Deletes a read-write lock whoever holds it, but only in the given mode, with the keys of its
-- read holds and its hold markers, and wakes waiters. Runs after core's hold-markers.lua and
-- read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- ARGV[1]  the mode to free: read or write
-- ARGV[2]  message to publish (0: wake one waiter, 1: wake every waiter)
-- ARGV[3]  publish command: publish or spublish
--
-- Returns  1 when the lock was held in that mode and is deleted; 0 when it was not (nothing
--          changed).
local lock = KEYS[1]
if redis.call('hget', lock, 'mode') ~= ARGV[1] then
  return 0
end
local entries = redis.call('hgetall', lock)
for i = 1, #entries, 2 do
  local field, count = entries[i], tonumber(entries[i + 1])
  if count and is_reader_field(field) then
    for n = 1, count do
      redis.call('del', hold_key(lock, field, n))
    end
  end
end
redis.call('del', lock, markers_of(lock))
redis.call(ARGV[3], KEYS[2], ARGV[2])
return 1
