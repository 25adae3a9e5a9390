--- @include "release-hold"
-- Releases one hold of a reentrant lock; the last hold deletes it and wakes one waiter.
-- Runs after release-hold.lua (with its fragments), which defines release_hold().
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_lock__channel:{name}
-- KEYS[3]  the acquisition's request record, deadbolt_request:{name}:<hold id>
-- KEYS[4]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  message to publish when the lock is freed (0: wake one waiter)
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  the hold id of the acquisition being released
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the record keeps the outcome, in milliseconds
--
-- Returns  nil when this hold does not stand (nothing changed); 0 when holds remain; 1 when the
--          lock was freed (for a copy: the first outcome).
return release_hold(KEYS[1], KEYS[4], ARGV[2], ARGV[3], KEYS[3], ARGV[5], function()
  redis.call(ARGV[4], KEYS[2], ARGV[1])
end)
