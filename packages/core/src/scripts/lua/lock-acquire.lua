-- Takes a reentrant lock, or re-enters it for the owner that holds it (Redisson's RLock layout).
-- Runs after hold-markers.lua and lock-hold.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  this attempt's hold id, <instance>:<n>
--
-- Returns  nil when the lock was taken or re-entered (the owner's hold count went up by one, or
--          this very attempt had counted already: a re-sent request counts once);
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
local state = hold_state(KEYS[1], KEYS[2], ARGV[2], ARGV[3])
if state == 'other' then
  return redis.call('pttl', KEYS[1])
end
if state ~= 'counted' then
  add_hold(KEYS[1], KEYS[2], ARGV[2], ARGV[3], tonumber(ARGV[1]))
end
return nil
