-- Takes a reentrant lock, or re-enters it for the owner that holds it (Redisson's RLock layout).
-- Runs after lock-hold.lua, which defines can_hold() and add_hold().
--
-- KEYS[1]  the lock hash
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
--
-- Returns  nil when the lock was taken or re-entered (the owner's hold count went up by one);
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
if can_hold(KEYS[1], ARGV[2]) then
  add_hold(KEYS[1], ARGV[2], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
