-- Renews the leases of many held locks in one call (the watchdog's batch for one slot).
-- A lock is renewed only while its owner still holds it: renewal never re-acquires.
-- Runs after renew-batch.lua, which defines renew_batch().
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[i+1]   owner field for KEYS[i]
--
-- Returns  an array with one entry per key: 1 renewed, 0 gone (expired, released or taken over).
return renew_batch(function(lock, field, lease)
  if redis.call('hexists', lock, field) == 0 then
    return false
  end
  redis.call('pexpire', lock, lease)
  return true
end)
