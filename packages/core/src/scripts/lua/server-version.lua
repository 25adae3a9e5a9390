-- Reports the server's version, to refuse a server older than Deadbolt needs and to choose
-- sharded pub/sub where the server has it.
--
-- KEYS     none
-- ARGV     none
--
-- Returns  the version as text, e.g. '7.0.15': `redis.REDIS_VERSION` from Redis 7.0 (Valkey gives
--          the Redis version it is compatible with, 7.2.4), the `redis_version` INFO field before.
return redis.REDIS_VERSION or string.match(redis.call('info', 'server'), 'redis_version:([%d%.]+)')
