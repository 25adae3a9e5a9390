--- @include "@deadbolt/core/hold-markers"
--- @include "read-holds"
-- Sets a new lease on one standing write hold (HeldLock.extend). The owner's only write hold gets
-- exactly the new lease, though never less than the owner's own read holds still have; while
-- other write holds of the owner stand, the lease is only ever lengthened. The hold is marked as
-- extended by this request (see core's hold-markers.lua): a copy of it, an earlier extend
-- arriving after it, and a renewal still on its way change nothing afterwards. Runs after core's
-- hold-markers.lua fragments and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  the new lease in milliseconds
-- ARGV[2]  writer field, <clientId>:<ownerId>:write
-- ARGV[3]  the hold id of the acquisition being extended
-- ARGV[4]  this extend's request number: later extends of the hold have higher ones
-- ARGV[5]  this extend's deadline on the server's clock, in milliseconds
--
-- Returns  1 when extended (or when this extend, or a later one, had been already: nothing
--          changed); 0 when this hold does not stand (released, expired, force-unlocked). Raises
--          DEADBOLT_LATE past the deadline.
local lock, markers, lease, writer, hold, request = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2], ARGV[3], tonumber(ARGV[4])
refuse_if_late(ARGV[5])
local extended_by = mark_of(markers, writer, hold)
if extended_by == nil or redis.call('hget', lock, 'mode') ~= 'write' or redis.call('hexists', lock, writer) == 0 then
  return 0
end
if extended_by >= request then
  return 1
end
if tonumber(redis.call('hget', lock, writer)) == 1 then
  redis.call('pexpire', lock, math.max(lease, longest_read_hold(lock)))
else
  extend_to(lock, lease)
end
mark_extended(markers, writer, hold, request)
keep_markers(lock, markers)
return 1
