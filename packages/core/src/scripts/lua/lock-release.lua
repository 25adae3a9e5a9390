-- Releases one hold of a reentrant lock; the last hold deletes it and wakes one waiter.
-- Runs after release-hold.lua, which defines release_hold().
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_lock__channel:{name}
-- KEYS[3]  this release request's latch, redisson_unlock_latch:{name}:<requestId>
-- ARGV[1]  message to publish when the lock is freed (0: wake one waiter)
-- ARGV[2]  lease in milliseconds to keep when holds remain
-- ARGV[3]  owner field, <clientId>:<ownerId>
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the latch remembers the outcome, in milliseconds
--
-- Returns  nil when the owner does not hold the lock (nothing changed);
--          0 when holds remain; 1 when the lock was freed (a re-sent request: the first outcome).
return release_hold(KEYS[1], ARGV[3], ARGV[2], KEYS[3], ARGV[5], function()
  redis.call(ARGV[4], KEYS[2], ARGV[1])
end)
