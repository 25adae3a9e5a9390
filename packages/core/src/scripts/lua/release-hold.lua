--- @include "hold-markers"
--- @include "release-once"
-- A fragment, not a script: defines release_hold(), the release of one hold of a lock hash in
-- Redisson's layout, and drop_hold(), its first step, which a script that does something else
-- with a freed lock (a local hand-off) builds on. A release script includes it and says what
-- freeing the lock announces, and on which channel. Runs after request-deadline.lua,
-- release-once.lua and hold-markers.lua (its include lines bring them all).
--
-- drop_hold(lock, markers, field, hold)
--   Takes hold `hold` of `field` off the owner's count, and unmarks it while holds remain.
--   Returns nil when this hold does not stand (nothing changed); 0 when holds of the owner
--   remain; 1 when it was the owner's last: its field (at 1) and its mark are left in place,
--   for the caller to remove with the lock and its markers. The last hold, the usual case, costs
--   two reads and no write.
--
-- release_hold(lock, markers, field, hold, record, remember, on_freed)
--   lock      the lock hash
--   markers   the lock's hold markers, deadbolt_holds:{name}
--   field     owner field, <clientId>:<ownerId>
--   hold      the hold id of the acquisition being released
--   record    the acquisition's request record, deadbolt_request:{name}:<hold id>
--   remember  how long the record keeps the outcome, in milliseconds (see release-once.lua)
--   on_freed  called once the last hold has deleted the lock, to wake a waiter
--   A hold that remains keeps the lock's TTL as it is: releasing one hold never shortens what
--   another hold of the owner believes.
--
-- Returns  nil when this hold does not stand (released already, expired, force-unlocked:
--          nothing changed); 0 when holds remain; 1 when the lock was freed (for a copy: the
--          first outcome).
local function drop_hold(lock, markers, field, hold)
  if mark_of(markers, field, hold) == nil then
    return nil
  end
  local count = tonumber(redis.call('hget', lock, field))
  if count == nil then
    return nil
  end
  if count > 1 then
    redis.call('hincrby', lock, field, -1)
    redis.call('hdel', markers, hold)
    return 0
  end
  -- The last hold keeps its mark: removing the field deletes the lock, and every caller then
  -- drops the markers with it (a release deletes them; a hand-off's add_hold() starts them afresh).
  return 1
end

local function release_hold(lock, markers, field, hold, record, remember, on_freed)
  return release_once(record, remember, function()
    local dropped = drop_hold(lock, markers, field, hold)
    if dropped == 1 then
      redis.call('del', lock, markers)
      on_freed()
    end
    return dropped
  end)
end
