-- Renews the leases of many held locks in one call (the watchdog's batch for one slot).
-- A hold is renewed only while it stands: renewal never re-acquires, and never shortens a
-- lease that another hold of the owner (a longer fixed lease, an extend) set.
-- Runs after hold-markers.lua and renew-batch.lua, which defines renew_batch().
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[2i]    owner field for KEYS[i]
-- ARGV[2i+1]  hold id of the hold renewed at KEYS[i]
--
-- Returns  an array with one entry per key: 1 renewed, 0 gone (expired, released or taken over).
return renew_batch(function(lock, field, hold, lease)
  local markers = markers_of(lock)
  if not is_marked(lock, markers, field, hold) then
    return false
  end
  extend_to(lock, lease)
  keep_markers(lock, markers)
  return true
end)
