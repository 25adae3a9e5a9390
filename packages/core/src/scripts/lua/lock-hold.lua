-- A fragment, not a script: defines can_hold() and add_hold(), which take or re-enter a
-- reentrant lock hash in Redisson's layout. An acquire script prepends it and says what else
-- taking the lock does (a fenced lock draws a token in between).
--
-- can_hold(lock, field)
--   lock   the lock hash
--   field  owner field, <clientId>:<ownerId>
--   Returns true when nobody holds the lock or `field` holds it already.
--
-- add_hold(lock, field, lease)
--   Adds one hold of `field` and sets the lock's lease, in milliseconds.
local function can_hold(lock, field)
  return redis.call('exists', lock) == 0 or redis.call('hexists', lock, field) == 1
end

local function add_hold(lock, field, lease)
  redis.call('hincrby', lock, field, 1)
  redis.call('pexpire', lock, lease)
end
