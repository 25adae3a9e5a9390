-- Renews the leases of many read and write holds in one call (the watchdog's batch for one slot).
-- A hold is renewed only while its owner still holds it: renewal never re-acquires. Runs after
-- core's hold-markers.lua, renew-batch.lua and read-holds.lua.
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[2i]    the hold field for KEYS[i]: a writer field <clientId>:<ownerId>:write, or a reader
--             field <clientId>:<ownerId>
-- ARGV[2i+1]  the hold id of the hold renewed at KEYS[i]
--
-- A writer's lock hash is made to live at least the lease. A reader's live read holds are each
-- made to live at least the lease (a longer fixed lease is kept), and the hash at least as long.
--
-- Returns  an array with one entry per key: 1 renewed; 0 gone (released, expired,
--          force-unlocked, or a reader none of whose holds is live any more).
return renew_batch(function(lock, field, hold, lease)
  local markers = markers_of(lock)
  local count = tonumber(redis.call('hget', lock, field))
  if not count or redis.call('hget', markers, hold) ~= field then
    return false
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
