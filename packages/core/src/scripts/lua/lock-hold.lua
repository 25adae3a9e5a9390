-- A fragment, not a script: defines hold_state() and add_hold(), which take or re-enter an
-- exclusive reentrant lock hash in Redisson's layout. An acquire script prepends it (after
-- hold-markers.lua) and says what else taking the lock does (a fenced lock draws a token in
-- between).
--
-- hold_state(lock, markers, field, hold)
--   lock     the lock hash
--   markers  the lock's hold markers, deadbolt_holds:{name}
--   field    owner field, <clientId>:<ownerId>
--   hold     this attempt's hold id
--   Returns 'free' when nobody holds the lock; 'other' when another owner does; 'counted' when
--   `field` holds it and this very attempt was counted already (a re-sent request); 'mine' when
--   `field` holds it from other attempts (a re-entry). Asks the cheapest question first: a free
--   lock costs one call, a lock held by another owner two.
--
-- add_hold(lock, markers, field, hold, lease)
--   Adds one hold of `field`, marked as `hold`, and makes the lock live at least `lease` ms: the
--   holds of one owner share the lock's TTL, so a hold never shortens what another believes.
--   Only for a lock `field` may hold ('free' or 'mine'): the owner's first hold is then on a lock
--   that did not exist, which gets exactly `lease` and drops the markers of holds that ended
--   unseen.
local function hold_state(lock, markers, field, hold)
  if redis.call('exists', lock) == 0 then
    return 'free'
  end
  if redis.call('hexists', lock, field) == 0 then
    return 'other'
  end
  if redis.call('hget', markers, hold) == field then
    return 'counted'
  end
  return 'mine'
end

local function add_hold(lock, markers, field, hold, lease)
  if redis.call('hincrby', lock, field, 1) > 1 then
    extend_to(lock, lease)
    mark(lock, markers, field, hold)
    return
  end
  -- A new key: no TTL to compare with, and the markers start afresh with the lock's.
  redis.call('pexpire', lock, lease)
  redis.call('del', markers)
  redis.call('hset', markers, hold, field)
  redis.call('pexpire', markers, lease)
end
