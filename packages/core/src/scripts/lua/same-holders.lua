--- @include "request-deadline"
-- A fragment, not a script: defines same_holders(), the check that makes a force-unlock free
-- exactly what the operator was shown. The client reads the lock hash (field -> value) when
-- asked, and the force-release script deletes the lock only while the hash is still that: a lock
-- released and taken by another holder in between, or after a late copy of the request, stays.
--
-- same_holders(lock, first)
--   lock   the lock hash
--   first  the index in ARGV of the first field of the hash as read; fields and values alternate
--          from there to the end of ARGV
--   Returns true when the hash holds exactly those fields with those values.
local function same_holders(lock, first)
  if redis.call('hlen', lock) * 2 ~= #ARGV - first + 1 then
    return false
  end
  for i = first, #ARGV, 2 do
    if redis.call('hget', lock, ARGV[i]) ~= ARGV[i + 1] then
      return false
    end
  end
  return true
end
