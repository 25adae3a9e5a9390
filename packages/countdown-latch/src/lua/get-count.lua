-- Reads a latch's count.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
--
-- Returns  the count as a decimal string; nil when the latch has no count (Redisson reads 0).
return redis.call('get', KEYS[1])
