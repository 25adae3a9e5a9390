-- A fragment, not a script: defines renew_batch(), the watchdog's batch renewal call as the
-- RenewalScheduler makes it. A renewal script prepends it and says how one hold is renewed.
--
-- KEYS[1..n]  lock keys, all in one slot (a key twice for two holds of one lock)
-- ARGV[1]     lease in milliseconds
-- ARGV[2i]    the hold field for KEYS[i]
-- ARGV[2i+1]  the hold id of the hold renewed at KEYS[i]
--
-- renew_batch(renew_one)
--   renew_one(lock, field, hold, lease)  renews one hold while it still stands (its mark is
--                                  there: a hold that was force-unlocked stays gone even when
--                                  its owner took the lock again), and never re-acquires;
--                                  returns true when renewed, false when gone
--
-- Returns  the script's reply: an array with one entry per key, 1 renewed or 0 gone.
local function renew_batch(renew_one)
  local lease = tonumber(ARGV[1])
  local renewed = {}
  for i = 1, #KEYS do
    renewed[i] = renew_one(KEYS[i], ARGV[2 * i], ARGV[2 * i + 1], lease) and 1 or 0
  end
  return renewed
end
