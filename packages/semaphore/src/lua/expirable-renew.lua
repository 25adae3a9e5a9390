-- The watchdog's batch renewal of held permits: for each hold, moves the end of its permits'
-- lease to now + lease, when every one of them still stands (is in the set and its lease has not
-- ended). Never takes back a permit that is gone, and never shortens a lease (an updateLeaseTime
-- that landed first stands). Runs after expirable-permits.lua.
--
-- KEYS[1..n]  each hold's held permits set, {name}:timeout, all in one slot (a key twice for two holds)
-- ARGV[1]     the lease in milliseconds
-- ARGV[2]     now: the wall-clock time in milliseconds
-- ARGV[2+i]   the permit ids of the hold at KEYS[i], hex, separated by spaces
--
-- Returns  one entry per key: 1 renewed, 0 gone (one of its permits is no longer held).
local now = tonumber(ARGV[2])
local expiry = now + tonumber(ARGV[1])
local renewed = {}
for i = 1, #KEYS do
  local members = permit_members(ARGV[2 + i])
  local scores = {}
  renewed[i] = 1
  for j, member in ipairs(members) do
    scores[j] = tonumber(redis.call('zscore', KEYS[i], member) or 0)
    if scores[j] <= now then
      renewed[i] = 0
    end
  end
  if renewed[i] == 1 then
    for j, member in ipairs(members) do
      if scores[j] < expiry then
        redis.call('zadd', KEYS[i], expiry, member)
      end
    end
  end
end
return renewed
