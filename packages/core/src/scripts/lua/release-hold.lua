-- A fragment, not a script: defines release_hold(), the release of one hold of a lock hash in
-- Redisson's layout, with the request's unlock latch. A release script prepends it and says what
-- freeing the lock announces, and on which channel. Runs after unlock-latch.lua, which defines
-- with_unlock_latch() (coreLua.releaseHold carries both).
--
-- release_hold(lock, field, lease, latch, remember, on_freed)
--   lock      the lock hash
--   field     owner field, <clientId>:<ownerId>
--   lease     lease in milliseconds to keep when holds remain
--   latch     this release request's latch, redisson_unlock_latch:{name}:<requestId>
--   remember  how long the latch remembers the outcome, in milliseconds
--   on_freed  called once the last hold has deleted the lock, to wake a waiter
--
-- Returns  nil when the owner does not hold the lock (nothing changed);
--          0 when holds remain; 1 when the lock was freed (a re-sent request: the first outcome).
local function release_hold(lock, field, lease, latch, remember, on_freed)
  return with_unlock_latch(latch, remember, function()
    if redis.call('hexists', lock, field) == 0 then
      return nil
    end
    if redis.call('hincrby', lock, field, -1) > 0 then
      redis.call('pexpire', lock, lease)
      return 0
    end
    redis.call('del', lock)
    on_freed()
    return 1
  end)
end
