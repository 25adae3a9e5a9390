-- A fragment, not a script: the holds of a Semaphore. Every acquisition attempt has a hold id of
-- its own (<instance>:<n>, never reused), and the permits it took are marked under that id in a
-- hash beside the semaphore, deadbolt_holds:{name} (hold id -> permits). Their release removes the
-- mark and gives back exactly what it says, once; an attempt, or a copy of one, that arrives after
-- its release or its give-back finds no mark (and its request record claimed: see
-- request-deadline.lua) and takes nothing. Redisson's scripts never read it.
--
-- A mark is permits taken from the semaphore's key, so the holds must live exactly as that key
-- does. Holds that outlive the key would give back, to a key set afresh, permits it never lent;
-- holds that die first leave their permits taken for good. Redis cannot tie one key's life to
-- another's, and a Redisson peer changes the key's TTL without touching the holds:
-- trySetPermits(n, ttl) and expire() set one, addPermits' and drainPermits' SET and clearExpire()
-- drop it. So every Deadbolt script that reads or writes the holds first makes them live as the
-- key does now (keep_holds), whatever the last script saw:
--   the key is missing   its permits went with it: the holds are dropped, and a release gives
--                        nothing back (it never sets the key afresh);
--   the key has no TTL   nor have the holds. Each mark lives until its release: a holder that
--                        dies keeps its permits and their mark, as a semaphore always kept a dead
--                        holder's permits. Holds without TTL are tied to held permits;
--   the key has a TTL    the holds get the same, to the millisecond: when the key expires they go
--                        with it, before a peer can set it afresh. Their life is bounded.
-- (Holds without a TTL of their own beside a key with one, dropped when a script finds the key
-- gone, would survive any drift, but would outlive every key that expires: a peer's
-- trySetPermits(n, ttl), the usual way to set such a semaphore again, would inherit the old marks
-- and their release would raise its limit, and nothing would bound their life. A mark lost to a
-- drift only fails to give back; a mark that outlives its key gives back what was never taken.)
-- A peer's change between two scripts goes unseen until the next one:
--   - it drops or lengthens the TTL (the drift): the holds would expire while the key lives. A
--     process holding permits that saw the key with a TTL looks again (sync-holds.lua) after half
--     of the TTL left, and again, so the holds follow the key (see holdsKeeper.ts). Marks are lost
--     only by a drift in the last moments of the TTL, or while no process holding permits looks
--     (every one dead, or cut off from Redis): their release then finds no mark while the key
--     exists, and gives nothing back. It cannot tell those permits from ones an expired key took
--     with it, and never gives back permits it cannot prove held;
--   - it gives a key without TTL one, or deletes the key: the holds, without TTL, outlive it. The
--     next script drops them (key missing) or gives them the key's TTL; at the latest the release
--     of a mark does. So holds without TTL live only while a mark of permits not yet released
--     does, as the permits of a dead holder would on a key without TTL: every key Deadbolt keeps
--     for the semaphore has a bounded life or is tied to permits held. Should the peer set the
--     key afresh first (delete then trySetPermits), the old marks cannot be told from marks of
--     the new key, and their release gives their permits to it: Redis keeps nothing to tell a
--     key set afresh from the old one.
--
-- SEMAPHORE_MISSING, NO_EXPIRY  the semaphore's PTTL when it is missing, when it has no TTL
-- keep_holds(semaphore, holds)  makes the holds live as the semaphore does now: dropped when it is
--                               missing, without expiry when it has none, else until it expires.
--                               Returns the semaphore's PTTL: SEMAPHORE_MISSING (-2), -1 when it
--                               has no TTL, else the milliseconds it has left
-- follow_ttl(holds, ttl)        the same, for a script that read the semaphore's PTTL `ttl` itself
--                               (time stands still in a script: it is still the key's)
local SEMAPHORE_MISSING, NO_EXPIRY = -2, -1

local function follow_ttl(holds, ttl)
  if ttl == SEMAPHORE_MISSING then
    redis.call('del', holds)
  elseif ttl == NO_EXPIRY then
    redis.call('persist', holds)
  else
    redis.call('pexpire', holds, ttl)
  end
  return ttl
end

local function keep_holds(semaphore, holds)
  return follow_ttl(holds, redis.call('pttl', semaphore))
end
