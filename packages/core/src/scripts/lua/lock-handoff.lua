--- @include "pass-hold"
-- Releases one hold of a reentrant lock and, when it was its owner's last, passes the lock to a
-- waiter of the same client in the same step (a local hand-off, see pass-hold.lua).
-- Runs after pass-hold.lua, with its fragments.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the releasing hold's request record, deadbolt_request:{name}:<hold id>
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[4]  the receiver's request record, deadbolt_request:{name}:<receiver's hold id>
-- KEYS[5]  the lock's channel, redisson_lock__channel:{name}
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
--          releasing owner remain (nothing passed); 1 when the lock was passed to the receiver;
--          2 when it was freed for everyone instead, the receiver having given its hold back
--          (for a copy: the first outcome). Raises DEADBOLT_LATE past the deadline.
return pass_hold(KEYS[1], KEYS[3], KEYS[2], ARGV[6], ARGV[1], ARGV[2], ARGV[3], ARGV[4], KEYS[4], ARGV[7], tonumber(ARGV[5]), function() end, function()
  redis.call(ARGV[8], KEYS[5], ARGV[9])
end)
