--- @include "@deadbolt/core/lock-hold"
-- Takes a fenced lock or re-enters it, and draws the next fencing token (Redisson's RFencedLock
-- layout): every acquisition, a re-entry too, increments the counter once.
-- Runs after core's lock-hold.lua (with the request deadline and the hold markers).
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the token counter, redisson_lock_token:{name}
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  this attempt's hold id, <instance>:<n>
-- ARGV[4]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  { token } when the lock was taken or re-entered: the counter's new value, as a decimal
--          string read back with GET (a Lua number is a double, exact only up to 2^53). A copy
--          of an attempt whose hold still stands draws no new token and gets the counter as it
--          stands: only its own owner can have moved it since, by re-entering.
--          Otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry; 0 for a
--          copy of an attempt whose hold is gone, when nobody holds the lock: a copy takes
--          nothing and draws nothing). Raises DEADBOLT_LATE past the deadline.
local state, ttl = hold_state(KEYS[1], KEYS[3], KEYS[4], ARGV[4], ARGV[2], ARGV[3])
if state == 'other' or state == 'gone' then
  return retry_ttl(ttl)
end
if state ~= 'counted' then
  -- Before the hold: a counter that is not an integer fails the script with the lock untouched
  -- (only the attempt's record is claimed, until its deadline).
  redis.call('incr', KEYS[2])
  add_hold(KEYS[1], KEYS[3], ARGV[2], ARGV[3], tonumber(ARGV[1]))
end
return { redis.call('get', KEYS[2]) }
