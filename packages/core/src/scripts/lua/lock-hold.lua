--- @include "hold-markers"
-- A fragment, not a script: defines hold_state() and add_hold(), which take or re-enter an
-- exclusive reentrant lock hash in Redisson's layout. An acquire script includes it (after
-- request-deadline.lua and hold-markers.lua) and says what else taking the lock does (a fenced
-- lock draws a token in between).
--
-- hold_state(lock, markers, record, deadline, field, hold)
--   lock      the lock hash
--   markers   the lock's hold markers, deadbolt_holds:{name}
--   record    this attempt's request record, deadbolt_request:{name}:<hold id>
--   deadline  this attempt's deadline on the server's clock (refused past it: DEADBOLT_LATE)
--   field     owner field, <clientId>:<ownerId>
--   hold      this attempt's hold id
--   Returns the state and, but for 'counted', the lock's PTTL as read (-2: no lock): 'free' when
--   nobody holds the lock; 'other' when another owner does; 'mine' when `field` holds it from
--   other attempts (a re-entry). For a copy of an attempt that ran already (its record is
--   claimed): 'counted' when the hold it took still stands, 'gone' when it took none, or took one
--   that ended, or was given back before it arrived; a copy changes nothing.
--   Asks the PTTL first, which a busy lock's reply needs anyway: a free lock costs one call after
--   the claim, a busy one two.
--
-- add_hold(lock, markers, field, hold, lease)
--   Adds one hold of `field`, marked as `hold`, and makes the lock live at least `lease` ms: the
--   holds of one owner share the lock's TTL, so a hold never shortens what another believes.
--   Only for a lock `field` may hold ('free' or 'mine'): the owner's first hold is then on a lock
--   that did not exist, which gets exactly `lease` and drops the markers of holds that ended
--   unseen.
--
-- retry_ttl(ttl)
--   The reply of an attempt that took nothing, from the lock's PTTL `ttl` (as hold_state() read
--   it): 0 (try again at once) when there is no lock, -1 when it never expires, else `ttl`.
local PTTL_NO_KEY = -2

local function hold_state(lock, markers, record, deadline, field, hold)
  refuse_if_late(deadline)
  if not claim_request(record, deadline) then
    if is_marked(lock, markers, field, hold) then
      return 'counted'
    end
    return 'gone', redis.call('pttl', lock)
  end
  local ttl = redis.call('pttl', lock)
  if ttl == PTTL_NO_KEY then
    return 'free', ttl
  end
  if redis.call('hexists', lock, field) == 0 then
    return 'other', ttl
  end
  return 'mine', ttl
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

local function retry_ttl(ttl)
  if ttl == PTTL_NO_KEY then
    return 0
  end
  return ttl
end
