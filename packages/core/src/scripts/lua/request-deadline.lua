-- A fragment, not a script: the deadline that makes a late copy of a request harmless. A driver
-- re-sends a request whose reply it lost, after any delay, and a slow network may deliver one
-- late. So every request that could take, count or lengthen something carries a deadline on the
-- server's clock (the client's estimate of the server's time when it sent the request, plus its
-- commandTimeout), and its script refuses to run past it. What a script keeps to recognise a copy
-- (a claimed request, a tombstone) therefore only has to live until that deadline, and never
-- lives without a TTL. The client treats a refusal like any outcome it did not learn (the first
-- copy may have run): see the owner-model guide's "Requests that arrive late".
--
-- CLAIMED                           what a claimed record holds until a release overwrites it
-- server_now()                      the server's time in milliseconds (TIME)
-- refuse_if_late(deadline)          raises the error DEADBOLT_LATE <now> <deadline> when the
--                                   server's time has reached `deadline`; returns the time
-- claim_request(record, deadline)   claims `record`, the key of this request, until the
--                                   deadline: true for the request's first run, false for a copy
--                                   (or for a request given up before it arrived, whose record
--                                   the give-back claimed: see release-once.lua)
-- once(record, deadline, remember, run)
--                                   runs run(now) once per request: refuses it past the deadline,
--                                   and answers a copy with the number the first run returned
--                                   (nil when it returned nil), changing nothing. The record lives
--                                   `remember` ms past the deadline (twice commandTimeout), as the
--                                   client may send the request again under the same id after an
--                                   outcome it did not learn, with a later deadline: it does so only
--                                   within commandTimeout of the first send (LockRuntime.runOnce),
--                                   so every copy's deadline falls within the record's life
local CLAIMED = 'claimed'
local MS_PER_SECOND, US_PER_MS = 1000, 1000

local function server_now()
  local time = redis.call('time')
  return tonumber(time[1]) * MS_PER_SECOND + math.floor(tonumber(time[2]) / US_PER_MS)
end

local function refuse_if_late(deadline)
  local now = server_now()
  if now >= tonumber(deadline) then
    error({ err = 'DEADBOLT_LATE ' .. now .. ' ' .. deadline })
  end
  return now
end

-- The records expire at absolute times (PXAT): since Redis 7.2 a relative PX counts from the
-- script's start, not from TIME, and would end a record early by the script's run time.
local function claim_request(record, deadline)
  return redis.call('set', record, CLAIMED, 'nx', 'pxat', tonumber(deadline)) ~= false
end

local function once(record, deadline, remember, run)
  local now = refuse_if_late(deadline)
  if redis.call('set', record, CLAIMED, 'nx', 'pxat', tonumber(deadline) + tonumber(remember)) == false then
    return tonumber(redis.call('get', record))
  end
  local result = run(now)
  if result ~= nil then
    redis.call('set', record, result, 'xx', 'keepttl')
  end
  return result
end
