--- @include "@deadbolt/core/request-deadline"
-- Deletes a latch and, when there was one, publishes message 1, "new count", as Redisson does.
-- A Deadbolt waiter it wakes then reads the count 0 and finishes. Once per request, never past its
-- deadline: a copy that arrives after a new count was set deletes nothing and answers the first
-- outcome, or is refused. Runs after request-deadline.lua.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  this request's deadline on the server's clock, in milliseconds
-- ARGV[3]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  1 when the latch existed and was deleted; 0 when there was none. Raises DEADBOLT_LATE
--          past the deadline.
return once(KEYS[3], ARGV[2], ARGV[3], function()
  if redis.call('del', KEYS[1]) == 0 then
    return 0
  end
  redis.call(ARGV[1], KEYS[2], '1')
  return 1
end)
