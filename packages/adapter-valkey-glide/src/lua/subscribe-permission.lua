-- Tells whether the connection's ACL user may subscribe to a channel. GLIDE's subscription manager
-- logs a refused SUBSCRIBE and retries it, so the adapter asks the server instead.
--
-- KEYS     none
-- ARGV[1]  the subscribe command: 'subscribe' or 'ssubscribe'
-- ARGV[2]  the channel
-- ARGV[3]  the command that publishes to it: 'publish' or 'spublish'
--
-- Returns  'allowed' when the user may run ARGV[1] on the channel; otherwise 'command' when the
--          user may publish to the channel (channel patterns serve PUBLISH and SUBSCRIBE alike, so
--          the channel is granted and the subscribe command is what is missing), else 'channel'.
if redis.acl_check_cmd(ARGV[1], ARGV[2]) then return 'allowed' end
if redis.acl_check_cmd(ARGV[3], ARGV[2], '') then return 'command' end
return 'channel'
