-- Releases one hold of a fair lock; the last hold deletes it and wakes the waiter at the head of
-- the queue on its own channel (nobody else). Runs after core's release-hold.lua and queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- KEYS[5]  this release request's latch, redisson_unlock_latch:{name}:<requestId>
-- ARGV[1]  message that wakes a waiter (0)
-- ARGV[2]  lease in milliseconds to keep when holds remain
-- ARGV[3]  owner field, <clientId>:<ownerId>
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the latch remembers the outcome, in milliseconds
-- ARGV[6]  now, the caller's wall clock in ms
-- ARGV[7]  waiterTimeout in ms: the most the head waiter is given to take the freed lock
--
-- Returns  nil when the owner does not hold the lock (nothing changed);
--          0 when holds remain; 1 when the lock was freed (a re-sent request: the first outcome).
return release_hold(KEYS[1], ARGV[3], ARGV[2], KEYS[5], ARGV[5], function()
  wake_head(tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[4], ARGV[1])
end)
