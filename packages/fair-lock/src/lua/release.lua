--- @include "@deadbolt/core/release-hold"
--- @include "queue"
-- Releases one hold of a fair lock; the last hold deletes it and wakes the waiter at the head of
-- the queue on its own channel (nobody else). A hold that remains keeps the lock's TTL. Runs
-- after core's release-hold.lua (with its fragments) and queue.lua: once
-- per hold, recorded in the acquisition's request record.
--
-- KEYS[1..4]  as in queue.lua
-- KEYS[5]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[6]  the acquisition's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  message that wakes a waiter (0)
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  owner field, <clientId>:<ownerId>
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the record keeps the outcome, in milliseconds
-- ARGV[6]  now, the caller's wall clock in ms
-- ARGV[7]  waiterTimeout in ms: the most the head waiter is given to take the freed lock
--
-- Returns  nil when this hold does not stand (nothing changed); 0 when holds remain; 1 when the
--          lock was freed (for a copy: the first outcome).
return release_hold(KEYS[1], KEYS[5], ARGV[3], ARGV[2], KEYS[6], ARGV[5], function()
  wake_head(tonumber(ARGV[6]), tonumber(ARGV[7]), ARGV[4], ARGV[1])
end)
