-- Deletes a spin lock whoever holds it, with its hold markers; announces nothing (Redisson's
-- RSpinLock.forceUnlock: its waiters poll).
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's hold markers, deadbolt_holds:{name}
--
-- Returns  1 when a lock was deleted, 0 when there was none.
if redis.call('del', KEYS[1]) == 1 then
  redis.call('del', KEYS[2])
  return 1
end
return 0
