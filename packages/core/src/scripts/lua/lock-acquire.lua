-- Takes a reentrant lock, or re-enters it for the owner that holds it (Redisson's RLock layout).
--
-- KEYS[1]  the lock hash
-- ARGV[1]  lease in milliseconds
-- ARGV[2]  owner field, <clientId>:<ownerId>
--
-- Returns  nil when the lock was taken or re-entered (the owner's hold count went up by one);
--          otherwise the lock's remaining TTL in milliseconds (-1 when it has no expiry).
if redis.call('exists', KEYS[1]) == 0 or redis.call('hexists', KEYS[1], ARGV[2]) == 1 then
  redis.call('hincrby', KEYS[1], ARGV[2], 1)
  redis.call('pexpire', KEYS[1], ARGV[1])
  return nil
end
return redis.call('pttl', KEYS[1])
