--- @include "@deadbolt/core/request-deadline"
-- Counts a latch down by one. At zero the latch opens: its key goes and message 0, "zero
-- count", wakes the waiters. As Redisson does, a count that falls below zero (a countDown on a
-- latch with no count) deletes the key and publishes nothing. Once per request, never past its
-- deadline: a copy the driver re-sends, or the network delivers late, counts nothing and answers
-- the first outcome, or is refused. Runs after request-deadline.lua.
--
-- KEYS[1]  the latch: a string holding its count, at the latch's name
-- KEYS[2]  the latch's channel, redisson_countdownlatch__channel__{name}
-- KEYS[3]  this request's record, deadbolt_request:{name}:<request id>
-- ARGV[1]  the command to publish with: publish, or spublish for sharded pub/sub
-- ARGV[2]  this request's deadline on the server's clock, in milliseconds
-- ARGV[3]  how long the record lives past the deadline, in milliseconds: a retry of the request
--          (LockRuntime.runOnce, within commandTimeout of the first send) finds it
--
-- Returns  the count after this countdown (negative when the latch had no count). Raises
--          DEADBOLT_LATE past the deadline.
return once(KEYS[3], ARGV[2], ARGV[3], function()
  local count = redis.call('decr', KEYS[1])
  if count <= 0 then
    redis.call('del', KEYS[1])
  end
  if count == 0 then
    redis.call(ARGV[1], KEYS[2], '0')
  end
  return count
end)
