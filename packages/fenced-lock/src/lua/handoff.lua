--- @include "@deadbolt/core/pass-hold"
-- Releases one hold of a fenced lock and, when it was its owner's last, passes the lock to a
-- waiter of the same client in the same step, drawing the receiver's fencing token as its
-- acquisition would (a local hand-off, see core's pass-hold.lua).
-- Runs after core's pass-hold.lua, with its fragments.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the releasing hold's request record, deadbolt_request:{name}:<hold id>
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  the token counter, redisson_lock_token:{name}
-- KEYS[5]  the receiver's request record, deadbolt_request:{name}:<receiver's hold id>
-- KEYS[6]  the lock's channel, redisson_lock__channel:{name}
-- ARGV[1]  the releasing owner field, <clientId>:<ownerId>
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  the receiving owner field
-- ARGV[4]  the receiver's new hold id, <instance>:<n>
-- ARGV[5]  the receiver's lease in milliseconds: the lock then lives exactly this long
-- ARGV[6]  how long the record keeps the outcome, in milliseconds
-- ARGV[7]  the hand-off's deadline on the server's clock, in milliseconds
-- ARGV[8]  publish command: publish or spublish
-- ARGV[9]  message to publish when the lock is freed instead of passed (0: wake one waiter)
--
-- Returns  nil when the releasing hold does not stand (nothing changed); 0 when holds of the
--          releasing owner remain (nothing passed); { token } when the lock was passed to the
--          receiver: the counter's new value as a decimal string, as the acquire script returns
--          it; 2 when the lock was freed for everyone instead, the receiver having given its hold
--          back first (no token drawn). A copy (see release-once.lua) gets the counter as it
--          stands: only the receiver can have moved it since, by re-entering. Raises
--          DEADBOLT_LATE past the deadline.
-- A counter INCR would refuse fails the script before anything changes, as an acquisition does
-- (a script's writes are not undone when it fails halfway).
local counter = redis.call('get', KEYS[4])
if counter and not string.match(counter, '^%-?%d+$') then
  return redis.error_reply('ERR value is not an integer or out of range')
end
local outcome = pass_hold(KEYS[1], KEYS[3], KEYS[2], ARGV[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], KEYS[5], ARGV[7], tonumber(ARGV[5]), function()
  redis.call('incr', KEYS[4])
end, function()
  redis.call(ARGV[8], KEYS[6], ARGV[9])
end)
if outcome == 1 then
  return { redis.call('get', KEYS[4]) }
end
return outcome
