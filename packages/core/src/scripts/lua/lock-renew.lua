-- Renews the leases of many held locks in one call (the watchdog's batch for one slot).
-- A lock is renewed only while its owner still holds it: renewal never re-acquires.
--
-- KEYS[1..n]  lock hashes, all in one slot
-- ARGV[1]     lease in milliseconds
-- ARGV[i+1]   owner field for KEYS[i]
--
-- Returns  an array with one entry per key: 1 renewed, 0 gone (expired, released or taken over).
local renewed = {}
for i = 1, #KEYS do
  if redis.call('hexists', KEYS[i], ARGV[i + 1]) == 1 then
    redis.call('pexpire', KEYS[i], ARGV[1])
    renewed[i] = 1
  else
    renewed[i] = 0
  end
end
return renewed
