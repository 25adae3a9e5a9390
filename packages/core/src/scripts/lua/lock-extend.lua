-- Sets a new lease on one standing hold of a reentrant lock (HeldLock.extend). The owner's only
-- hold gets exactly the new lease, shorter or longer; while other holds of the owner stand, the
-- lease is only ever lengthened, so no hold is left believing in more time than Redis gives.
-- Runs after hold-markers.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  the new lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  the hold id of the acquisition being extended
--
-- Returns  1 when extended; 0 when this hold does not stand (released, expired, force-unlocked).
local lock, markers, lease, field = KEYS[1], KEYS[2], tonumber(ARGV[1]), ARGV[2]
if not is_marked(lock, markers, field, ARGV[3]) then
  return 0
end
if tonumber(redis.call('hget', lock, field)) == 1 then
  redis.call('pexpire', lock, lease)
else
  extend_to(lock, lease)
end
keep_markers(lock, markers)
return 1
