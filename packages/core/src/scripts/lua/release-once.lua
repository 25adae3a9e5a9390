--- @include "request-deadline"
-- A fragment, not a script: defines release_once(), which runs a release once per record and
-- answers its outcome to a copy. The record is the request record of what is being released (an
-- acquisition's, by its hold id: see request-deadline.lua), so the same key first says "this
-- acquisition ran" and then "it was released, with this outcome". A release that finds nothing to
-- release records that too: the acquisition it names may be one whose outcome its client never
-- learned and gave back, still on its way, and it must find its record claimed when it arrives.
-- The record then lives `remember` ms (twice commandTimeout), longer than any acquisition sent
-- before the release can still arrive: its deadline is at most commandTimeout, plus the client's
-- clock estimate's error (under commandTimeout), after the release's own send.
--
-- release_once(record, remember, release)
--   record    the record of what is released, deadbolt_request:{name}:<id>
--   remember  how long the record keeps the outcome, in milliseconds
--   release   does the release once; returns nil (nothing of it stood: nothing changed) or a
--             number
--
-- Returns  the first outcome for a copy, else what release() returns.
--
-- release() runs first, and the record is read only when nothing of it stood: a hold that stands
-- was never released (its release unmarks it, and a hold id is never marked again), so its
-- record holds no outcome yet, and the usual release costs no read of it.
local NOTHING_RELEASED = 'none'

local function release_once(record, remember, release)
  local result = release()
  if result ~= nil then
    redis.call('set', record, result, 'px', remember)
    return result
  end
  local recorded = redis.call('get', record)
  if recorded and recorded ~= CLAIMED then
    return tonumber(recorded)
  end
  redis.call('set', record, NOTHING_RELEASED, 'px', remember)
  return nil
end
