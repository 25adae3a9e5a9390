--- @include "@deadbolt/core/request-deadline"
-- Sets a latch's count when it has none, and tells waiters that a new count is set (the layout
-- and messages of Redisson's RCountDownLatch). Once per request, never past its deadline: a copy
-- that arrives after the latch reached zero, or was deleted, sets nothing and answers the first
-- outcome, or is refused. Runs after request-deadline.lua.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the count, a non-negative integer
-- ARGV[2]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[3]  this request's deadline on the server's clock, in milliseconds
-- ARGV[4]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  1 when the count was set (and message 1, "new count", published); 0 when the latch
--          had a count already (nothing changed). Raises DEADBOLT_LATE past the deadline.
return once(KEYS[3], ARGV[3], ARGV[4], function()
  if redis.call('exists', KEYS[1]) == 1 then
    return 0
  end
  redis.call('set', KEYS[1], ARGV[1])
  redis.call(ARGV[2], KEYS[2], '1')
  return 1
end)
