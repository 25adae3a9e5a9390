-- Releases one hold of a reentrant lock and, when it was its owner's last, passes the lock to a
-- waiter of the same client in the same step (a local hand-off): the hash then names the waiter,
-- so queries and Redisson clients see the real holder. Nothing is published and nobody else is
-- woken: other processes keep sleeping, as the lock was never free. Runs after release-hold.lua
-- and lock-hold.lua (with their fragments).
--
-- KEYS[1]  the lock hash
-- KEYS[2]  the releasing hold's latch, redisson_unlock_latch:{name}:<hold id>
-- KEYS[3]  the lock's hold markers, deadbolt_holds:{name}
-- ARGV[1]  the releasing owner field, <clientId>:<ownerId>
-- ARGV[2]  the hold id of the acquisition being released
-- ARGV[3]  the receiving owner field
-- ARGV[4]  the receiver's new hold id, <instance>:<n>
-- ARGV[5]  the receiver's lease in milliseconds: the lock then lives exactly this long
-- ARGV[6]  how long the latch remembers the outcome, in milliseconds
--
-- Returns  nil when the releasing hold does not stand (nothing changed); 0 when holds of the
--          releasing owner remain (nothing passed); 1 when the lock was passed to the receiver
--          (a request re-sent while the latch remembers: the first outcome; a plain release
--          re-sent for the same hold reads 1 too, "freed" as far as its owner is concerned).
return with_unlock_latch(KEYS[2], ARGV[6], function()
  local dropped = drop_hold(KEYS[1], KEYS[3], ARGV[1], ARGV[2])
  if dropped ~= 1 then
    return dropped
  end
  -- The last hold: the hash held only this owner's field, so removing it deletes the lock, and
  -- add_hold() takes it afresh for the receiver with exactly the receiver's lease.
  redis.call('hdel', KEYS[1], ARGV[1])
  add_hold(KEYS[1], KEYS[3], ARGV[3], ARGV[4], tonumber(ARGV[5]))
  return 1
end)
