--- @include "expirable-permits"
--- @include "@deadbolt/core/request-deadline"
-- Sets the lease of held permits to end `lease` ms from now, shorter or longer than before:
-- Redisson's RPermitExpirableSemaphore.updateLeaseTime, for several ids at once (all or none).
-- Permits whose lease ended are reclaimed first, so an expired permit is not brought back. Never
-- past the request's deadline, and never after a later update of the same hold: the hold's lease
-- record keeps the number of the last update that ran (each update's request id, <instance>:<n>,
-- comes from the counter of the client that holds the permits), for longer than any update or
-- renewal sent before it can still arrive, so neither changes the lease it set. Runs after
-- expirable-permits.lua and request-deadline.lua.
--
-- KEYS[1]  the semaphore: a string holding its free permits, at the semaphore's name
-- KEYS[2]  the held permits, {name}:timeout
-- KEYS[3]  the semaphore's channel, redisson_sc:{name}
-- KEYS[4]  the hold's lease record, deadbolt_request:{name}:<hold id>:lease
-- ARGV[1]  now: the wall-clock time in milliseconds
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  the permit ids, hex, separated by spaces
-- ARGV[4]  the new lease in milliseconds
-- ARGV[5]  this update's request number: later updates of the hold have higher ones
-- ARGV[6]  this update's deadline on the server's clock, in milliseconds
-- ARGV[7]  how long the lease record lives, in milliseconds
--
-- Returns  1 when every id was held and each now ends at now + lease (or when this update, or a
--          later one, ran already: nothing changed); 0 when one was not held (nothing changed).
--          Raises DEADBOLT_LATE past the deadline.
local semaphore, timeouts, channel, record = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local now, request = tonumber(ARGV[1]), tonumber(ARGV[5])
refuse_if_late(ARGV[6])
reclaim_expired(semaphore, timeouts, channel, now, ARGV[2])
local members = permit_members(ARGV[3])
for _, member in ipairs(members) do
  if not redis.call('zscore', timeouts, member) then
    return 0
  end
end
if tonumber(redis.call('get', record) or 0) >= request then
  return 1
end
local expiry = now + tonumber(ARGV[4])
for _, member in ipairs(members) do
  redis.call('zadd', timeouts, expiry, member)
end
redis.call('set', record, request, 'px', ARGV[7])
return 1
