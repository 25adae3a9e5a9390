--- @include "@deadbolt/core/lock-hold"
--- @include "read-holds"
-- Takes the write lock, or re-enters it for the owner that holds it. Claims the attempt's request
-- record first, so the attempt counts once however often it arrives, and a copy that comes after
-- its hold ended (or after its give-back) takes nothing. Runs after core's lock-hold.lua fragments
-- (hold_state(), add_hold(), retry_ttl()) and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[3]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  writer field, <clientId>:<ownerId>:write
-- ARGV[3]  the same owner's reader field, <clientId>:<ownerId>
-- ARGV[4]  this attempt's hold id, <instance>:<n>
-- ARGV[5]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  nil when the lock was taken or re-entered (the writer field counts one more hold, or
--          this very attempt had counted already and its hold stands: a copy counts once);
--          -3 when the owner holds live read holds and not the write lock: an upgrade, which no
--          wait could ever grant, since the write lock waits for every reader to leave;
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry; 0 for a
--          copy of an attempt whose hold is gone, when nobody holds the lock). Raises
--          DEADBOLT_LATE past the deadline.
local lock, markers, lease, writer, reader, hold = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4]
local state, ttl = hold_state(lock, markers, KEYS[3], ARGV[5], writer, hold)
if state == 'counted' then
  return nil
end
if state == 'gone' then
  return retry_ttl(ttl)
end
if state == 'free' then
  -- add_hold() then counts the writer's first hold on a new hash: exactly the lease, fresh markers.
  redis.call('hset', lock, 'mode', 'write')
end
-- 'mine': the writer field only stands in write mode, so this is a re-entry.
if state ~= 'other' then
  add_hold(lock, markers, writer, hold, lease)
  return nil
end
local count = tonumber(redis.call('hget', lock, reader))
if redis.call('hget', lock, 'mode') == 'read' and count and longest_hold_of(lock, reader, count) ~= -2 then
  return -3
end
return ttl
