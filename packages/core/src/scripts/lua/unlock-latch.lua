-- A fragment, not a script: defines with_unlock_latch(), which makes a release request
-- idempotent. A driver may re-send a request after a reconnect; the latch key remembers the
-- first outcome for a short while, so the re-sent request returns it instead of "not held".
--
-- with_unlock_latch(latch, remember, release)
--   latch     this release request's latch, redisson_unlock_latch:{name}:<requestId>
--   remember  how long the latch remembers the outcome, in milliseconds
--   release   does the release once; returns nil (the owner did not hold the lock: nothing is
--             remembered) or a number, which is remembered
--
-- Returns  the remembered outcome when the request was seen before, else what release() returns.
local function with_unlock_latch(latch, remember, release)
  local latched = redis.call('get', latch)
  if latched then
    return tonumber(latched)
  end
  local result = release()
  if result ~= nil then
    redis.call('set', latch, result, 'px', remember)
  end
  return result
end
