--- @include "@deadbolt/core/pass-hold"
--- @include "read-holds"
-- Releases one hold of the write lock and, when it was its owner's last, passes the write lock to
-- a writer of the same client in the same step (a local hand-off, see core's pass-hold.lua): the
-- hash stays in write mode and names the receiver's writer field, the lock lives exactly the
-- receiver's lease, nothing is published and nobody else is woken, as the lock was never free.
-- When the owner still holds live read holds, its last write hold downgrades the lock to a read
-- lock as write-release.lua does, waking every waiter; the receiver, a writer, may not share it,
-- so nothing passes. The hand-off is the receiver's acquisition: it claims the receiver's request
-- record and is refused past its deadline; when the receiver gave its hold back first, the write
-- lock is freed for everyone instead, as write-release.lua frees it. Runs once per releasing hold (release_once(), with the acquisition's request
-- record): a copy answers the first outcome. Runs after core's pass-hold.lua fragments
-- (release_once(), drop_hold(), add_hold()) and read-holds.lua.
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the lock's channel, redisson_rwlock:{name}
-- KEYS[3]  the releasing hold's request record, deadbolt_request:{name}:<hold id>
-- KEYS[4]  the lock's hold markers, deadbolt_holds:{name}
-- KEYS[5]  the receiver's request record, deadbolt_request:{name}:<receiver's hold id>
-- ARGV[1]  message to publish when a downgrade ends write mode (1: wake every waiter)
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  the releasing writer field, <clientId>:<ownerId>:write
-- ARGV[4]  publish command: publish or spublish
-- ARGV[5]  how long the record keeps the outcome, in milliseconds
-- ARGV[6]  the receiving writer field, <clientId>:<ownerId>:write
-- ARGV[7]  the receiver's new hold id, <instance>:<n>
-- ARGV[8]  the receiver's lease in milliseconds: the lock then lives exactly this long
-- ARGV[9]  the hand-off's deadline on the server's clock, in milliseconds
--
-- Returns  nil when the releasing hold does not stand (nothing changed); 0 when write holds of
--          the releasing owner remain (nothing passed); 1 when the write lock was passed to the
--          receiver; 2 when the owner's read holds keep the lock, downgraded to a read lock and
--          every waiter woken (nothing passed), or freed for everyone as the receiver gave its hold
--          back first. A copy gets the first outcome. Raises DEADBOLT_LATE past the deadline.
local lock, markers, from, from_hold = KEYS[1], KEYS[4], ARGV[3], ARGV[2]
refuse_if_late(ARGV[9])
return release_once(KEYS[3], ARGV[5], function()
  local dropped = drop_hold(lock, markers, from, from_hold)
  if dropped ~= 1 then
    return dropped
  end
  -- The last write hold: drop_hold() left its field at 0 and its mark in place.
  redis.call('hdel', lock, from)
  local longest = longest_read_hold(lock)
  if longest == -2 then
    -- No live read hold is left (in write mode only the writer's own can be there) and the dead
    -- ones' fields are dropped: the hash holds only `mode` = write. add_hold() gives it the
    -- receiver's writer field at 1, exactly the receiver's lease, and markers started afresh,
    -- as for a lock taken anew.
    if not claim_request(KEYS[5], ARGV[9]) then
      redis.call('del', lock, markers)
      redis.call(ARGV[4], KEYS[2], ARGV[1])
      return HANDOFF_RELEASED
    end
    add_hold(lock, markers, ARGV[6], ARGV[7], tonumber(ARGV[8]))
    return 1
  end
  -- A downgrade, leaving the lock as write-release.lua does. That script stays byte for byte what
  -- released clients send (its SHA names it), so this branch is not moved into a shared fragment.
  redis.call('hdel', markers, from_hold)
  redis.call('hset', lock, 'mode', 'read')
  if longest > 0 then
    redis.call('pexpire', lock, longest)
  end
  redis.call(ARGV[4], KEYS[2], ARGV[1])
  return HANDOFF_RELEASED
end)
