-- Sets a new lease on one standing write hold (HeldLock.extend). The owner's only write hold gets
-- exactly the new lease, though never less than the owner's own read holds still have; while
-- other write holds of the owner stand, the lease is only ever lengthened. Runs after core's
-- hold-markers.lua and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  the new lease in milliseconds
-- ARGV[2]  writer field, <clientId>:<ownerId>:write
-- ARGV[3]  the hold id of the acquisition being extended
--
-- Returns  1 when extended; 0 when this hold does not stand (released, expired, force-unlocked).
local lock, markers, lease, writer = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2]
if redis.call('hget', lock, 'mode') ~= 'write' or not is_marked(lock, markers, writer, ARGV[3]) then
  return 0
end
if tonumber(redis.call('hget', lock, writer)) == 1 then
  redis.call('pexpire', lock, math.max(lease, longest_read_hold(lock)))
else
  extend_to(lock, lease)
end
keep_markers(lock, markers)
return 1
