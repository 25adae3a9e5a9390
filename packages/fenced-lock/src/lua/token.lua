-- Reads a fenced lock's token counter: the token of its latest acquisition.
--
-- KEYS[1]  the token counter, redisson_lock_token:{name}
--
-- Returns  the counter as a decimal string; nil when the lock was never taken.
return redis.call('get', KEYS[1])
