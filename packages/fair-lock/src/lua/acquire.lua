-- Takes a fair lock in arrival order, re-enters it, or queues the caller. Runs after queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  the caller's allowance in ms: its deadline is the deadline of the waiter ahead (or
--          the lock's expiry) plus this, and each attempt keeps it at least this far ahead;
--          0 for a no-wait attempt, which never joins the queue
-- ARGV[4]  now, the caller's wall clock in ms
-- ARGV[5]  waiterTimeout in ms: the most a head waiter is given to take a free lock
-- ARGV[6]  publish command: publish or spublish
-- ARGV[7]  message that wakes a waiter (0)
--
-- Returns  nil when the lock was taken or re-entered; otherwise how many ms to sleep before the
--          next attempt unless woken first on the caller's own channel (a no-wait attempt: the
--          lock's remaining TTL, -1 when it has none, 0 when it is free but others queue first).
local field = ARGV[2]
local allowance = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local limit = tonumber(ARGV[5])

if redis.call('hexists', KEYS[1], field) == 1 then
  redis.call('hincrby', KEYS[1], field, 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end

local head, dropped = drop_expired(now)
local ttl = redis.call('pttl', KEYS[1])
if ttl == -2 then
  if not head or head == field then
    redis.call('hset', KEYS[1], field, 1)
    redis.call('pexpire', KEYS[1], ARGV[1])
    if head then
      redis.call('lpop', KEYS[2])
      redis.call('zrem', KEYS[3], field)
      -- The waiter next in line learns the new lease, so that it is awake when the lease runs out.
      local successor = redis.call('lindex', KEYS[2], 0)
      if successor then
        redis.call(ARGV[6], KEYS[4] .. ':' .. successor, ARGV[7])
      end
    end
    return nil
  end
  -- Free, but another waiter is first: it has at most waiterTimeout left, and is woken when the
  -- one before it was just dropped as dead.
  hurry(head, now, limit)
  if dropped > 0 then
    redis.call(ARGV[6], KEYS[4] .. ':' .. head, ARGV[7])
  end
end
if allowance == 0 then
  return ttl == -2 and 0 or ttl
end

local mine = tonumber(redis.call('zscore', KEYS[3], field))
local deadline
if mine then
  deadline = math.max(mine, now + allowance)
else
  local tail = redis.call('lindex', KEYS[2], -1)
  local after = tail and tonumber(redis.call('zscore', KEYS[3], tail)) or now + math.max(ttl, 0)
  deadline = math.max(after, now) + allowance
  redis.call('rpush', KEYS[2], field)
end
if deadline ~= mine then
  redis.call('zadd', KEYS[3], deadline, field)
  outlive_deadlines(now)
end

-- The head waits for the lock's expiry, the next in line for the head's deadline when the lock
-- is free; everyone checks in at least every third of its allowance, so none looks dead.
local sleep = -1
local first = redis.call('lindex', KEYS[2], 0)
if first == field or redis.call('lindex', KEYS[2], 1) == field then
  sleep = ttl == -2 and tonumber(redis.call('zscore', KEYS[3], first)) - now or ttl
end
local check_in = math.max(1, math.floor(math.min(allowance, limit) / 3))
if sleep < 0 or sleep > check_in then
  sleep = check_in
end
return math.max(sleep, 1)
