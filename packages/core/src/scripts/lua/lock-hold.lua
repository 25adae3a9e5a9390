-- A fragment, not a script: defines can_hold() and add_hold(), which take or re-enter a
-- reentrant lock hash in Redisson's layout. An acquire script prepends it (after
-- hold-markers.lua) and says what else taking the lock does (a fenced lock draws a token in
-- between).
--
-- can_hold(lock, field)
--   lock   the lock hash
--   field  owner field, <clientId>:<ownerId>
--   Returns true when nobody holds the lock or `field` holds it already.
--
-- add_hold(lock, markers, field, hold, lease)
--   Adds one hold of `field`, marked as `hold`, and makes the lock live at least `lease` ms: the
--   holds of one owner share the lock's TTL, so a hold never shortens what another believes.
--   A lock taken afresh drops the markers of holds that ended unseen.
local function can_hold(lock, field)
  return redis.call('exists', lock) == 0 or redis.call('hexists', lock, field) == 1
end

local function add_hold(lock, markers, field, hold, lease)
  if redis.call('hincrby', lock, field, 1) == 1 then
    redis.call('del', markers)
  end
  extend_to(lock, lease)
  mark(lock, markers, field, hold)
end
