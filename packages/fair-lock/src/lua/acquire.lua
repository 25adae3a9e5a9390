--- @include "@deadbolt/core/lock-hold"
--- @include "queue"
-- Takes a fair lock in arrival order, re-enters it, or queues the caller, once per attempt and
-- never past its deadline. Runs after core's lock-hold.lua (with the request deadline and
-- the hold markers) and queue.lua.
--
-- KEYS[1..4]  as in queue.lua
-- KEYS[5]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[6]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  lease in milliseconds: the lock then lives at least this long
-- ARGV[2]  owner field, <clientId>:<ownerId>
-- ARGV[3]  the caller's allowance in ms: its deadline is the deadline of the waiter ahead (or
--          the lock's expiry) plus this, and each attempt keeps it at least this far ahead;
--          0 for a no-wait attempt, which never joins the queue
-- ARGV[4]  now, the caller's wall clock in ms
-- ARGV[5]  waiterTimeout in ms: the most a head waiter is given to take a free lock
-- ARGV[6]  publish command: publish or spublish
-- ARGV[7]  message that wakes a waiter (0)
-- ARGV[8]  this attempt's hold id, <instance>:<n>
-- ARGV[9]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  nil when the lock was taken or re-entered (or this very attempt had counted already
--          and its hold stands: a copy counts once); otherwise how many ms to sleep before the
--          next attempt unless woken first on the caller's own channel (a no-wait attempt: the
--          lock's remaining TTL, -1 when it has none, 0 when it is free but others queue first).
--          A copy of an attempt whose hold is gone (or that took none: it queued, or was given
--          back before it arrived) takes nothing and leaves the queue and the deadlines as they
--          are. Raises DEADBOLT_LATE past the deadline.
local field = ARGV[2]
local allowance = tonumber(ARGV[3])
local now = tonumber(ARGV[4])
local limit = tonumber(ARGV[5])
local lease, hold = tonumber(ARGV[1]), ARGV[8]

-- What an attempt that takes nothing replies, given the lock's PTTL.
local function not_taken(ttl)
  if allowance == 0 then
    return ttl == -2 and 0 or ttl
  end
  -- Every waiter, wherever it stands, is awake when the lease ends, or soon after the head takes
  -- a free lock, since a Redisson head tells nobody (see waiter_sleep).
  return waiter_sleep(ttl, now, allowance, limit)
end

local state, ttl = hold_state(KEYS[1], KEYS[5], KEYS[6], ARGV[9], field, hold)
if state == 'counted' then
  return nil
end
if state == 'gone' then
  return not_taken(ttl)
end
if state == 'mine' then
  add_hold(KEYS[1], KEYS[5], field, hold, lease)
  return nil
end

-- Dropping expired waiters leaves the lock as hold_state() found it, `ttl` included.
local head, dropped = drop_expired(now)
if ttl == -2 then
  if not head or head == field then
    add_hold(KEYS[1], KEYS[5], field, hold, lease)
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
  return not_taken(ttl)
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
end
return not_taken(ttl)
