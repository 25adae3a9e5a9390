-- Reports the server's version, to choose sharded pub/sub where the server has it.
--
-- KEYS     none
-- ARGV     none
--
-- Returns  the version as an integer (7.0.15 is 0x07000f); 0 before Redis 7, which lacks the field.
return redis.REDIS_VERSION_NUM or 0
