-- A fragment, not a script: what every script of the permit-expirable semaphore shares. The
-- layout is Redisson's RPermitExpirableSemaphore: the permits free now as a decimal string at the
-- semaphore's name, and the permits held as a sorted set {name}:timeout whose members are permit
-- ids as bytes (Redisson sends each id's hex decoded), each scored by the wall-clock time in
-- milliseconds its lease ends. Redisson scores a permit taken without a lease NEVER.
--
-- NEVER                        the score of a permit that never expires (Redisson's nonExpirableTimeout)
-- permit_members(ids)          the sorted set members for ids given as hex, separated by spaces
-- remove_members(key, members) ZREM in chunks that unpack() can take; returns how many were there
-- reclaim_expired(permits, timeouts, channel, now, publish)
--                              gives every permit whose lease ended (score <= now) back to the
--                              free count and announces the count now free when it is positive,
--                              as Redisson's scripts do before anything else; returns how many
local NEVER = 922337203685477
local CHUNK = 1000

local function permit_members(ids)
  local members = {}
  for id in string.gmatch(ids, '%x+') do
    members[#members + 1] = (string.gsub(id, '%x%x', function(pair)
      return string.char(tonumber(pair, 16))
    end))
  end
  return members
end

local function remove_members(key, members)
  local removed = 0
  for first = 1, #members, CHUNK do
    removed = removed + redis.call('zrem', key, unpack(members, first, math.min(first + CHUNK - 1, #members)))
  end
  return removed
end

local function reclaim_expired(permits, timeouts, channel, now, publish)
  local expired = redis.call('zrangebyscore', timeouts, 0, now)
  if #expired == 0 then
    return 0
  end
  remove_members(timeouts, expired)
  local value = redis.call('incrby', permits, #expired)
  if value > 0 then
    redis.call(publish, channel, value)
  end
  return #expired
end
