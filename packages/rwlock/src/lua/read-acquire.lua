--- @include "@deadbolt/core/lock-hold"
--- @include "read-holds"
-- Takes a read hold: granted unless another owner holds the write lock. Claims the attempt's
-- request record first, so the attempt counts once however often it arrives, and a copy that
-- comes after its hold ended (or after its give-back) takes nothing. Runs after core's
-- lock-hold.lua fragments (hold_state(), retry_ttl()) and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[3]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds of this hold
-- ARGV[2]  reader field, <clientId>:<ownerId>
-- ARGV[3]  the same owner's writer field, <clientId>:<ownerId>:write (its write hold lets it read)
-- ARGV[4]  this attempt's hold id, <instance>:<n>
-- ARGV[5]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  nil when the hold was taken (or this very attempt had counted already and its hold
--          stands: a copy counts once): the reader field counts one more hold, n, whose key
--          <tag>:<field>:rwlock_timeout:<n> lives for the lease, and the hash at least as long;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry; 0 for a
--          copy of an attempt whose hold is gone, when nobody holds the lock). Raises
--          DEADBOLT_LATE past the deadline.
local lock, markers, lease, field, hold = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[4]
local state, ttl = hold_state(lock, markers, KEYS[3], ARGV[5], field, hold)
if state == 'counted' then
  return nil
end
if state == 'gone' then
  return retry_ttl(ttl)
end
local mode = redis.call('hget', lock, 'mode')
if not (state == 'free' or mode == 'read' or (mode == 'write' and redis.call('hexists', lock, ARGV[3]) == 1)) then
  return ttl
end
if state == 'free' then
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
