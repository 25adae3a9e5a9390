--- @include "renew-batch"
-- Renews the leases of many held locks in one call (the watchdog's batch for one slot).
-- A hold is renewed only while it stands: renewal never re-acquires, and never shortens a
-- lease that another hold of the owner (a longer fixed lease, an extend) set. A hold whose lease
-- an extend set is left alone: this renewal was sent before the extend and arrived after it.
-- Runs after request-deadline.lua, hold-markers.lua and renew-batch.lua, which defines
-- renew_batch().
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[2]     this renewal's deadline on the server's clock, in milliseconds
-- ARGV[2i+1]  owner field for KEYS[i]
-- ARGV[2i+2]  hold id of the hold renewed at KEYS[i]
--
-- Returns  an array with one entry per key: 1 renewed (or left to its extended lease), 0 gone
--          (expired, released or taken over). Raises DEADBOLT_LATE past the deadline.
return renew_batch(function(lock, field, hold, lease)
  local markers = markers_of(lock)
  local extended_by = mark_of(markers, field, hold)
  if extended_by == nil or redis.call('hexists', lock, field) == 0 then
    return false
  end
  if extended_by == 0 then
    extend_to(lock, lease)
    keep_markers(lock, markers)
  end
  return true
end)
