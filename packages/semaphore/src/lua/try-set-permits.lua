-- Sets a semaphore's permits when it has none set yet: Redisson's RSemaphore.trySetPermits(n).
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's channel, redisson_sc:{name}
-- ARGV[1]  the permits to set, 0 or more
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
--
-- Returns  1 when set (and announced on the channel), 0 when the key exists (nothing changed).
if redis.call('exists', KEYS[1]) == 1 then
  return 0
end
redis.call('set', KEYS[1], ARGV[1])
redis.call(ARGV[2], KEYS[2], ARGV[1])
return 1
