--- @include "expirable-permits"
--- @include "@deadbolt/core/request-deadline"
-- The watchdog's batch renewal of held permits: for each hold, moves the end of its permits'
-- lease to now + lease, when every one of them still stands (is in the set and its lease has not
-- ended). Never takes back a permit that is gone, never shortens a lease, and leaves alone a hold
-- whose lease an update set (its lease record is there: this renewal was sent before the update
-- and arrived after it). A renewal lengthens leases, so a copy that arrives late is refused.
-- Runs after expirable-permits.lua and request-deadline.lua.
--
-- KEYS[2i-1]  hold i's held permits set, {name}:timeout, all in one slot (a key twice for two holds)
-- KEYS[2i]    hold i's lease record, deadbolt_request:{name}:<hold id>:lease
-- ARGV[1]     the lease in milliseconds
-- ARGV[2]     now: the wall-clock time in milliseconds
-- ARGV[3]     this renewal's deadline on the server's clock, in milliseconds
-- ARGV[3+i]   hold i's permit ids, hex, separated by spaces
--
-- Returns  one entry per hold: 1 renewed (or left to its updated lease), 0 gone (one of its
--          permits is no longer held). Raises DEADBOLT_LATE past the deadline.
local KEYS_PER_HOLD = 2
refuse_if_late(ARGV[3])
local now = tonumber(ARGV[2])
local expiry = now + tonumber(ARGV[1])
local renewed = {}
for i = 1, #KEYS / KEYS_PER_HOLD do
  local timeouts, record = KEYS[KEYS_PER_HOLD * i - 1], KEYS[KEYS_PER_HOLD * i]
  local members = permit_members(ARGV[3 + i])
  local scores = {}
  renewed[i] = 1
  for j, member in ipairs(members) do
    scores[j] = tonumber(redis.call('zscore', timeouts, member) or 0)
    if scores[j] <= now then
      renewed[i] = 0
    end
  end
  if renewed[i] == 1 and redis.call('exists', record) == 0 then
    for j, member in ipairs(members) do
      if scores[j] < expiry then
        redis.call('zadd', timeouts, expiry, member)
      end
    end
  end
end
return renewed
