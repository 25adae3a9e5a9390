-- Takes a fenced lock or re-enters it, and draws the next fencing token (Redisson's RFencedLock
-- layout): every acquisition, a re-entry too, increments the counter once.
-- Runs after lock-hold.lua (coreLua.hold), which defines can_hold() and add_hold().
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the token counter, redisson_lock_token:{name}
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
--
-- Returns  { token } when the lock was taken or re-entered: the counter's new value, as a decimal
--          string read back with GET (a Lua number is a double, exact only up to 2^53);
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
if can_hold(KEYS[1], ARGV[2]) then
  -- Before the hold: a counter that is not an integer fails the script with the lock untouched.
  redis.call('incr', KEYS[2])
  add_hold(KEYS[1], ARGV[2], ARGV[1])
  return { redis.call('get', KEYS[2]) }
end
return redis.call('pttl', KEYS[1])
