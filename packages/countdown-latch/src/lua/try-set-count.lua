-- Sets a latch's count when it has none, and tells waiters that a new count is set (the layout
-- and messages of Redisson's RCountDownLatch). Runs after coreLua.unlockLatch: a
-- request the driver re-sends returns the first outcome instead of acting again.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's marker, deadbolt_latch_request:{name}:<request id>
-- ARGV[1]  the count, a non-negative integer
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  how long the marker keeps the outcome, in milliseconds
--
-- Returns  1 when the count was set (and message 1, "new count", published); 0 when the latch
--          had a count already (nothing changed).
return with_unlock_latch(KEYS[3], ARGV[3], function()
  if redis.call('exists', KEYS[1]) == 1 then
    return 0
  end
  redis.call('set', KEYS[1], ARGV[1])
  redis.call(ARGV[2], KEYS[2], '1')
  return 1
end)
