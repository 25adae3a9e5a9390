-- Releases one hold of a fenced lock and, when it was its owner's last, passes the lock to a
-- waiter of the same client in the same step, drawing the receiver's fencing token as its
-- acquisition would (a local hand-off, see core's pass-hold.lua).
-- Runs after coreLua.passHold.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the releasing hold's request record, deadbolt_request:{name}:<hold id>
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  the token counter, redisson_lock_token:{name}
-- ARGV[1]  the releasing owner field, <clientId>:<ownerId>
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  the receiving owner field
-- ARGV[4]  the receiver's new hold id, <instance>:<n>
-- ARGV[5]  the receiver's lease in milliseconds: the lock then lives exactly this long
-- ARGV[6]  how long the record keeps the outcome, in milliseconds
--
-- Returns  nil when the releasing hold does not stand (nothing changed); 0 when holds of the
--          releasing owner remain (nothing passed); { token } when the lock was passed to the
--          receiver: the counter's new value as a decimal string, as the acquire script returns
--          it. A copy (see release-once.lua) gets the counter as it stands: only the receiver can
--          have moved it since, by re-entering.
-- A counter INCR would refuse fails the script before anything changes, as an acquisition does
-- (a script's writes are not undone when it fails halfway).
local counter = redis.call('get', KEYS[4])
if counter and not string.match(counter, '^%-?%d+$') then
  return redis.error_reply('ERR value is not an integer or out of range')
end
local outcome = pass_hold(KEYS[1], KEYS[3], KEYS[2], ARGV[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], tonumber(ARGV[5]), function()
  redis.call('incr', KEYS[4])
end)
if outcome == 1 then
  return { redis.call('get', KEYS[4]) }
end
return outcome
