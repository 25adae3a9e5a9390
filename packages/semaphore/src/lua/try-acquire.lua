--- @include "@deadbolt/core/request-deadline"
--- @include "semaphore-holds"
-- Takes permits from a semaphore, all of them or none: Redisson's RSemaphore.tryAcquire(n), once
-- per attempt and never past the attempt's deadline. A waiter never holds part of what it asked
-- for, so two waiters for many permits cannot deadlock by each holding half. The attempt claims
-- its request record until its deadline, so a copy of it (a driver's re-send, a late delivery)
-- takes nothing, and marks what it took under its hold id (see semaphore-holds.lua). Every path
-- that reads or writes the holds first makes them live as the semaphore does; an attempt that
-- finds too few permits touches no hold and leaves them as they are, unless the semaphore is
-- missing or expires (dropped, or given its TTL, as ever): the usual semaphore, without a TTL,
-- then costs no PERSIST per failed attempt, and a peer's TTL change is followed by the next
-- script that reads or writes the holds, and by the holders' keepers (holdsKeeper.ts). Runs after
-- request-deadline.lua and semaphore-holds.lua.
--
-- KEYS[1]  the semaphore: a string holding its available permits, at the semaphore's name
-- KEYS[2]  the semaphore's holds, deadbolt_holds:{name}
-- KEYS[3]  this attempt's request record, deadbolt_request:{name}:<hold id>
-- ARGV[1]  how many permits to take, at least 1
-- ARGV[2]  this attempt's hold id, <instance>:<n>
-- ARGV[3]  this attempt's deadline on the server's clock, in milliseconds
--
-- Returns  {outcome, pttl}. outcome: 1 when taken (the count went down by ARGV[1]); 0 when fewer
--          are available (nothing changed; a missing key has none); for a copy, which changes
--          nothing: 1 while what the attempt took is held, 0 when it took nothing (or the
--          semaphore went, with it), -1 when it was given back or released. pttl: the
--          semaphore's PTTL (-2 missing, -1 no TTL), which the holds now share unless the attempt
--          found too few permits (then they share it only when it is not -1). Raises
--          DEADBOLT_LATE past the deadline, having changed nothing.
local TAKEN, TOO_FEW, GIVEN_BACK = 1, 0, -1
local semaphore, holds, record = KEYS[1], KEYS[2], KEYS[3]
local permits, hold, deadline = tonumber(ARGV[1]), ARGV[2], ARGV[3]
local now = refuse_if_late(deadline)
local ttl = redis.call('pttl', semaphore)
if ttl ~= NO_EXPIRY then
  follow_ttl(holds, ttl)
end

local function attempt()
  if not claim_request(record, deadline, now) then
    follow_ttl(holds, ttl)
    if redis.call('hexists', holds, hold) == 1 then
      return TAKEN
    end
    if redis.call('get', record) == CLAIMED then
      return TOO_FEW
    end
    return GIVEN_BACK
  end
  local value = redis.call('get', semaphore)
  if value == false or tonumber(value) < permits then
    return TOO_FEW
  end
  redis.call('decrby', semaphore, permits)
  redis.call('hset', holds, hold, permits)
  -- DECRBY kept the key's TTL; a hash the HSET created has none yet.
  follow_ttl(holds, ttl)
  return TAKEN
end

return {attempt(), ttl}
