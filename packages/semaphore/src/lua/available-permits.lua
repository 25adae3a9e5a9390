-- Reads a semaphore's available permits: Redisson's RSemaphore.availablePermits().
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
--
-- Returns  the permits as the decimal string stored; nil when the semaphore has no key.
return redis.call('get', KEYS[1])
