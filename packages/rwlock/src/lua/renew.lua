--- @include "@deadbolt/core/renew-batch"
--- @include "read-holds"
-- Renews the leases of many read and write holds in one call (the watchdog's batch for one slot).
-- A hold is renewed only while its owner still holds it: renewal never re-acquires. A write hold
-- whose lease an extend set is left alone: this renewal was sent before the extend and arrived
-- after it. Runs after core's renew-batch.lua fragments (refused past its deadline) and
-- read-holds.lua.
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[2]     this renewal's deadline on the server's clock, in milliseconds
-- ARGV[2i+1]  the hold field for KEYS[i]: a writer field <clientId>:<ownerId>:write, or a reader
--             field <clientId>:<ownerId>
-- ARGV[2i+2]  the hold id of the hold renewed at KEYS[i]
--
-- A writer's lock hash is made to live at least the lease. A reader's live read holds are each
-- made to live at least the lease (a longer fixed lease is kept), and the hash at least as long.
-- (A read hold is never marked as extended: its extend is this script with one key.)
--
-- Returns  an array with one entry per key: 1 renewed (or left to its extended lease); 0 gone
--          (released, expired, force-unlocked, or a reader none of whose holds is live any
--          more). Raises DEADBOLT_LATE past the deadline.
return renew_batch(function(lock, field, hold, lease)
  local markers = markers_of(lock)
  local extended_by = mark_of(markers, field, hold)
  local count = tonumber(redis.call('hget', lock, field))
  if extended_by == nil or not count then
    return false
  end
  if extended_by ~= 0 then
    return true
  end
  if is_reader_field(field) then
    local live = false
    for n = 1, count do
      local key = hold_key(lock, field, n)
      if redis.call('exists', key) == 1 then
        extend_to(key, lease)
        live = true
      end
    end
    if not live then
      return false
    end
  end
  extend_to(lock, lease)
  keep_markers(lock, markers)
  return true
end)
