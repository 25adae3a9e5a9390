--- @include "lock-hold"
-- Takes a reentrant lock, or re-enters it for the owner that holds it (Redisson's RLock layout).
-- Runs after request-deadline.lua, hold-markers.lua and lock-hold.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[3]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  this attempt's hold id, <instance>:<n>
-- ARGV[4]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  nil when the lock was taken or re-entered (the owner's hold count went up by one, or
--          this very attempt had counted already and its hold stands: a copy counts once);
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry; 0 for a
--          copy of an attempt whose hold is gone, when nobody holds the lock). Raises
--          DEADBOLT_LATE past the deadline.
local state, ttl = hold_state(KEYS[1], KEYS[2], KEYS[3], ARGV[4], ARGV[2], ARGV[3])
if state == 'counted' then
  return nil
end
if state == 'other' or state == 'gone' then
  return retry_ttl(ttl)
end
add_hold(KEYS[1], KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[1]))
return nil
