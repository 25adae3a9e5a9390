-- Deletes a lock whoever holds it, with its hold markers, and wakes one waiter.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_lock__channel:{name}
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  message to publish (0: wake one waiter)
-- ARGV[2]  publish command: publish or spublish
--
-- Returns  1 when a lock was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
  redis.call('del', KEYS[3])
  redis.call(ARGV[2], KEYS[2], ARGV[1])
  return 1
end
return 0
