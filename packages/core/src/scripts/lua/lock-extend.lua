--- @include "hold-markers"
-- Sets a new lease on one standing hold of a reentrant lock (HeldLock.extend). The owner's only
-- hold gets exactly the new lease, shorter or longer; while other holds of the owner stand, the
-- lease is only ever lengthened, so no hold is left believing in more time than Redis gives. The
-- hold is marked as extended by this request (see hold-markers.lua): a copy of it, an earlier
-- extend arriving after it, and a renewal still on its way change nothing afterwards.
-- Runs after request-deadline.lua and hold-markers.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  the new lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  the hold id of the acquisition being extended
-- ARGV[4]  this extend's request number: later extends of the hold have higher ones
-- ARGV[5]  this extend's deadline on the server's clock, in milliseconds
--
-- Returns  1 when extended (or when this extend, or a later one, had been already: nothing
--          changed); 0 when this hold does not stand (released, expired, force-unlocked). Raises
--          DEADBOLT_LATE past the deadline.
local lock, markers, lease, field, hold, request = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4])
refuse_if_late(ARGV[5])
local extended_by = mark_of(markers, field, hold)
if extended_by == nil or redis.call('hexists', lock, field) == 0 then
  return 0
end
if extended_by >= request then
  return 1
end
if tonumber(redis.call('hget', lock, field)) == 1 then
  redis.call('pexpire', lock, lease)
else
  extend_to(lock, lease)
end
mark_extended(markers, field, hold, request)
keep_markers(lock, markers)
return 1
