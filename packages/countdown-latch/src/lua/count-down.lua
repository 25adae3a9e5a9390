-- Counts a latch down by one. At zero the latch opens: its key goes and message 0, "zero
-- count", wakes the waiters. As Redisson does, a count that falls below zero (a countDown on a
-- latch with no count) deletes the key and publishes nothing. Runs after coreLua.unlockLatch: a
-- request the driver re-sends returns the first outcome instead of acting again.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's marker, deadbolt_latch_request:{name}:<request id>
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  how long the marker keeps the outcome, in milliseconds
--
-- Returns  the count after this countdown (negative when the latch had no count).
return with_unlock_latch(KEYS[3], ARGV[2], function()
  local count = redis.call('decr', KEYS[1])
  if count <= 0 then
    redis.call('del', KEYS[1])
  end
  if count == 0 then
    redis.call(ARGV[1], KEYS[2], '0')
  end
  return count
end)
