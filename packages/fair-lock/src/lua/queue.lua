-- A fragment, not a script: the waiting-queue helpers every fair-lock script starts with.
--
-- KEYS[1]  the lock hash (the reentrant lock's layout)
-- KEYS[2]  the queue: waiting owner fields in arrival order, redisson_lock_queue:{name}
-- KEYS[3]  the waiters' deadlines in wall-clock ms, a sorted set, redisson_lock_timeout:{name}
-- KEYS[4]  the lock's channel; a waiter's own channel is KEYS[4] .. ':' .. <its owner field>
--
-- A waiter whose deadline has passed while it stands at the head of the queue is presumed dead
-- and dropped by the next script that runs, as Redisson's scripts drop stale heads. Times come
-- from the caller's clock as ARGV, as Redisson's clients send theirs. Like Redisson, nothing sets
-- a TTL on the queue keys: a Java waiter's deadline may lie minutes past any deadline Deadbolt
-- wrote, and a TTL would drop it with its place. The keys go when their last entry leaves.

-- Drops presumed-dead waiters from the head of the queue.
-- Returns the waiter now at the head (false when none) and how many were dropped.
local function drop_expired(now)
  local dropped = 0
  while true do
    local head = redis.call('lindex', KEYS[2], 0)
    if not head then
      return false, dropped
    end
    local deadline = tonumber(redis.call('zscore', KEYS[3], head))
    if deadline and deadline > now then
      return head, dropped
    end
    redis.call('lpop', KEYS[2])
    redis.call('zrem', KEYS[3], head)
    dropped = dropped + 1
  end
end

-- The lock is free and `head` is next: it has `limit` ms at most to come and take it.
local function hurry(head, now, limit)
  if tonumber(redis.call('zscore', KEYS[3], head)) > now + limit then
    redis.call('zadd', KEYS[3], now + limit, head)
  end
end

-- The lock is free: drops presumed-dead waiters, hurries the head and wakes it on its channel.
local function wake_head(now, limit, publish, message)
  local head = drop_expired(now)
  if head then
    hurry(head, now, limit)
    redis.call(publish, KEYS[4] .. ':' .. head, message)
  end
end

-- How long a waiter that did not get the lock sleeps before its next attempt, unless a message on
-- its own channel wakes it first. Messages cannot be relied on alone: a Redisson client taking
-- the lock publishes nothing, nor does a lease that runs out. So a waiter is awake whenever the
-- lock can have changed hands unannounced:
-- - the lock is held (ttl >= 0): when the lease ends, as a Redisson waiter sleeps the PTTL its
--   attempt returned;
-- - the lock is free but another waiter is first (ttl -2): the head may be a Redisson client,
--   whose grant tells nobody, so the waiter looks again after FREE_LOCK_POLL ms (or at the head's
--   deadline, if sooner) to learn the new lease; Redisson's own waiters retry at once here;
-- and at least every third of its allowance (or of waiterTimeout, when shorter), which keeps its
-- deadline ahead so that it never looks dead.
local FREE_LOCK_POLL = 500
local function waiter_sleep(ttl, now, allowance, limit)
  local sleep = math.max(1, math.floor(math.min(allowance, limit) / 3))
  if ttl >= 0 then
    sleep = math.min(sleep, ttl)
  elseif ttl == -2 then
    sleep = math.min(sleep, FREE_LOCK_POLL)
    local head = redis.call('lindex', KEYS[2], 0)
    local deadline = head and tonumber(redis.call('zscore', KEYS[3], head))
    if deadline then
      sleep = math.min(sleep, deadline - now)
    end
  end
  return math.max(sleep, 1)
end
