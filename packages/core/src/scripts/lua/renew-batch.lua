--- @include "hold-markers"
-- A fragment, not a script: defines renew_batch(), the watchdog's batch renewal call as the
-- RenewalScheduler makes it. A renewal script includes it (after request-deadline.lua) and says
-- how one hold is renewed. A renewal lengthens leases, so a copy that arrives late is refused.
--
-- KEYS[1..n]  lock keys, all in one slot (a key twice for two holds of one lock)
-- ARGV[1]     lease in milliseconds
-- ARGV[2]     the renewal's deadline on the server's clock, in milliseconds
-- ARGV[2i+1]  the hold field for KEYS[i]
-- ARGV[2i+2]  the hold id of the hold renewed at KEYS[i]
--
-- renew_batch(renew_one)
--   renew_one(lock, field, hold, lease)  renews one hold while it still stands (its mark is
--                                  there: a hold that was force-unlocked stays gone even when
--                                  its owner took the lock again), and never re-acquires;
--                                  returns true when renewed, false when gone
--
-- Returns  the script's reply: an array with one entry per key, 1 renewed or 0 gone. Raises
--          DEADBOLT_LATE past the deadline.
local function renew_batch(renew_one)
  local lease = tonumber(ARGV[1])
  refuse_if_late(ARGV[2])
  local renewed = {}
  for i = 1, #KEYS do
    renewed[i] = renew_one(KEYS[i], ARGV[2 * i + 1], ARGV[2 * i + 2], lease) and 1 or 0
  end
  return renewed
end
