-- A fragment, not a script: the waiting-queue helpers every fair-lock script starts with.
--
-- KEYS[1]  the lock hash (the reentrant lock's layout)
-- KEYS[2]  the queue: waiting owner fields in arrival order, redisson_lock_queue:{name}
-- KEYS[3]  the waiters' deadlines in wall-clock ms, a sorted set, redisson_lock_timeout:{name}
-- KEYS[4]  the lock's channel; a waiter's own channel is KEYS[4] .. ':' .. <its owner field>
--
-- A waiter whose deadline has passed while it stands at the head of the queue is presumed dead
-- and dropped. Times come from the caller's clock as ARGV, as Redisson's clients send theirs.

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

-- After a deadline moved later: both queue keys expire a second after the latest deadline, so a
-- dead waiter's entry cannot outlive everyone when nobody comes to drop it.
local function outlive_deadlines(now)
  local last = redis.call('zrange', KEYS[3], -1, -1, 'WITHSCORES')
  if last[2] then
    local ttl = math.max(1, math.ceil(tonumber(last[2]) - now) + 1000)
    redis.call('pexpire', KEYS[2], ttl)
    redis.call('pexpire', KEYS[3], ttl)
  end
end
