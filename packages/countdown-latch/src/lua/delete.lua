-- Deletes a latch and, when there was one, publishes message 1, "new count", as Redisson does.
-- A Deadbolt waiter it wakes then reads the count 0 and finishes. Runs after coreLua.unlockLatch: a
-- request the driver re-sends returns the first outcome instead of acting again.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's marker, deadbolt_latch_request:{name}:<request id>
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  how long the marker keeps the outcome, in milliseconds
--
-- Returns  1 when the latch existed and was deleted; 0 when there was none.
return with_unlock_latch(KEYS[3], ARGV[2], function()
  if redis.call('del', KEYS[1]) == 0 then
    return 0
  end
  redis.call(ARGV[1], KEYS[2], '1')
  return 1
end)
