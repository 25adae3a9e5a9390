-- A fragment, not a script: the holds of a Semaphore. Every acquisition attempt has a hold id of
-- its own (<instance>:<n>, never reused), and the permits it took are marked under that id in a
-- hash beside the semaphore, deadbolt_holds:{name} (hold id -> permits). Their release removes the
-- mark and gives back exactly what it says, once; an attempt, or a copy of one, that arrives after
-- its release or its give-back finds no mark (and its request record claimed: see
-- request-deadline.lua) and takes nothing. Redisson's scripts never read it.
--
-- The hash is the permits held, not a record of a request: it lives exactly as long as some are
-- held (Redis deletes a hash whose last field goes), and dies with the semaphore when the
-- semaphore has a TTL, as Redisson's layout would expire the permits with it. So a mark has no TTL
-- of its own while the semaphore has none: a holder that dies keeps its permits, and their mark,
-- until someone gives permits back, as a semaphore always kept a dead holder's permits.
--
-- keep_holds(semaphore, holds)  makes the holds live as the semaphore does, after a script wrote
--                               it: without expiry when the semaphore has none (addPermits and
--                               drainPermits drop its TTL, as Redisson's SET does), else until the
--                               semaphore expires; a missing semaphore changes nothing
local function keep_holds(semaphore, holds)
  local ttl = redis.call('pttl', semaphore)
  if ttl == -1 then
    redis.call('persist', holds)
  elseif ttl > 0 then
    redis.call('pexpire', holds, ttl)
  end
end
