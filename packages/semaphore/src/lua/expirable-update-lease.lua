-- Sets the lease of held permits to end `lease` ms from now, shorter or longer than before:
-- Redisson's RPermitExpirableSemaphore.updateLeaseTime, for several ids at once (all or none).
-- Permits whose lease ended are reclaimed first, so an expired permit is not brought back.
-- Runs after expirable-permits.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the permit ids, hex, separated by spaces
-- ARGV[4]  the new lease in milliseconds
--
-- Returns  1 when every id was held (each now ends at now + lease), 0 when one was not (nothing
--          changed).
local now = tonumber(ARGV[1])
reclaim_expired(KEYS[1], KEYS[2], KEYS[3], now, ARGV[2])
local members = permit_members(ARGV[3])
for _, member in ipairs(members) do
  if not redis.call('zscore', KEYS[2], member) then
    return 0
  end
end
local expiry = now + tonumber(ARGV[4])
for _, member in ipairs(members) do
  redis.call('zadd', KEYS[2], expiry, member)
end
return 1
