-- Reads a read-write lock's state for the query methods of its read lock or its write lock.
--
-- KEYS[1]  the lock hash
-- ARGV[1]  hold field whose count to read (a reader or writer field), or '' for none
-- ARGV[2]  which lock asks: read or write
--
-- Returns  { remaining TTL in ms of the lock as that lock sees it (-2: not held in that mode,
--          -1: no expiry), the field's hold count (0: none) }. The write lock is held in write
--          mode; the read lock in read mode, and in write mode when the writer holds read holds.
local lock = KEYS[1]
local mode = redis.call('hget', lock, 'mode')
local held = mode == ARGV[2] or (ARGV[2] == 'read' and mode == 'write' and redis.call('hlen', lock) > 2)
local ttl = -2
if held then
  ttl = redis.call('pttl', lock)
end
local count = 0
if ARGV[1] ~= '' then
  count = tonumber(redis.call('hget', lock, ARGV[1])) or 0
end
return { ttl, count }
