--- @include "@deadbolt/core/release-hold"
--- @include "read-holds"
-- Releases one read hold. The lock then lives as long as its longest live read hold (the
-- writer's TTL stands while a writer holds); when that shortens its TTL, every waiter is woken to
-- see the new TTL. When no hold is left, the lock is deleted and one waiter (a writer) is woken.
-- The owner's holds are counted, not told apart: the one of its hold keys that ends first goes,
-- so the holds that remain keep the longest leases. Runs once per hold (release_once(), with the
-- acquisition's request record): a copy answers the first outcome. Runs after core's
-- release-hold.lua fragments (release_once(), unmark()) and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- KEYS[3]  the acquisition's request record, deadbolt_request:{name}:<hold id>
-- KEYS[4]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  message to publish when the lock is freed (0: wake one waiter)
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  reader field, <clientId>:<ownerId>
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the record keeps the outcome, in milliseconds
--
-- Returns  nil when this hold does not stand: released already, or the owner's leases ran out
--          (nothing changed); 0 when holds remain; 1 when the lock was freed (for a copy: the
--          first outcome).
local lock, markers, field = KEYS[1], KEYS[4], ARGV[3]
return release_once(KEYS[3], ARGV[5], function()
  if not unmark(markers, field, ARGV[2]) then
    return nil
  end
  local count = tonumber(redis.call('hget', lock, field))
  local own = count and longest_hold_of(lock, field, count) or -2
  if own == -2 then
    return nil
  end
  drop_shortest_hold(lock, field, count)
  if count > 1 then
    redis.call('hincrby', lock, field, -1)
  else
    redis.call('hdel', lock, field)
  end
  if redis.call('hget', lock, 'mode') == 'write' then
    return 0
  end
  -- The lock lives as long as its longest hold. When this owner's holds end well before the lock
  -- does, another reader's reaches that far, and nothing changes: no need to look at every
  -- reader. (A key and the hash set in one script can expire a millisecond or so apart: the
  -- clock runs during a script.)
  if own < redis.call('pttl', lock) - 5 and redis.call('hlen', lock) > 1 then
    return 0
  end
  local longest = longest_read_hold(lock)
  if longest ~= -2 then
    if longest > 0 and longest < redis.call('pttl', lock) then
      -- Waiters sleep by the TTL they saw: tell them all (1) that it is shorter now, or a writer
      -- would sleep past the end of a reader with a shorter lease.
      redis.call('pexpire', lock, longest)
      redis.call(ARGV[4], KEYS[2], 1)
    end
    return 0
  end
  redis.call('del', lock, markers)
  redis.call(ARGV[4], KEYS[2], ARGV[1])
  return 1
end)
