--- @include "release-hold"
--- @include "lock-hold"
-- A fragment, not a script: defines pass_hold(), a local hand-off: the release of one hold of an
-- exclusive reentrant lock that, when it was its owner's last, passes the lock to a waiter of the
-- same client in the same step. The hash then names the waiter, so queries and Redisson clients
-- see the real holder; nothing is published and nobody else is woken, as the lock was never
-- free. Runs after request-deadline.lua, release-once.lua, hold-markers.lua, release-hold.lua and
-- lock-hold.lua (its include lines bring them all).
--
-- pass_hold(lock, markers, record, remember, from, from_hold, to, to_hold, to_record, deadline,
--           lease, on_passing, on_released)
--   lock        the lock hash
--   markers     the lock's hold markers, deadbolt_holds:{name}
--   record      the releasing hold's request record, deadbolt_request:{name}:<hold id>
--   remember    how long the record keeps the outcome, in milliseconds (see release-once.lua)
--   from        the releasing owner field, <clientId>:<ownerId>
--   from_hold   the hold id of the acquisition being released
--   to          the receiving owner field
--   to_hold     the receiver's new hold id, <instance>:<n>
--   to_record   the receiver's request record, deadbolt_request:{name}:<to_hold>: the hand-off
--               is the receiver's acquisition, claimed as an attempt claims its own
--   deadline    the hand-off's deadline on the server's clock (refused past it: DEADBOLT_LATE)
--   lease       the receiver's lease in milliseconds: the lock then lives exactly this long
--   on_passing  called when the lock passes, before the receiver's hold is added (a fenced lock
--               draws the receiver's token there)
--   on_released called when the lock is freed instead of passed, to wake waiters: the receiver
--               gave its hold back before the hand-off arrived (its client did not learn the
--               outcome in time), so nobody would hold what passed
--
-- Returns  nil when the releasing hold does not stand (nothing changed); 0 when holds of the
--          releasing owner remain (nothing passed); 1 when the lock was passed to the receiver;
--          HANDOFF_RELEASED when it was freed for everyone instead
--          (for a copy: the first outcome; a plain release sent again for the same hold reads
--          1 too, "freed" as far as its owner is concerned).
local HANDOFF_RELEASED = 2

local function pass_hold(lock, markers, record, remember, from, from_hold, to, to_hold, to_record, deadline, lease, on_passing, on_released)
  refuse_if_late(deadline)
  return release_once(record, remember, function()
    local dropped = drop_hold(lock, markers, from, from_hold)
    if dropped ~= 1 then
      return dropped
    end
    -- The last hold: the hash held only this owner's field, so removing it deletes the lock, and
    -- add_hold() takes it afresh for the receiver with exactly the receiver's lease.
    redis.call('hdel', lock, from)
    if not claim_request(to_record, deadline) then
      redis.call('del', lock, markers)
      on_released()
      return HANDOFF_RELEASED
    end
    on_passing()
    add_hold(lock, markers, to, to_hold, lease)
    return 1
  end)
end
