-- A fragment, not a script: helpers over a read-write lock in Redisson's layout. The lock hash
-- has a field `mode` (read or write), a writer field <clientId>:<ownerId>:write and reader fields
-- <clientId>:<ownerId>, each counting holds. Read hold n of a reader field has its own key,
-- <tag>:<readerField>:rwlock_timeout:<n>, whose TTL is that hold's lease; <tag> is {name}, or the
-- name itself when it already contains a brace, so every key shares the lock's cluster slot.
--
-- hold_key(lock, field, n)            the key carrying the lease of read hold n of `field`
-- is_reader_field(field)              whether a hash field counts read holds
-- longest_hold_of(lock, field, count) the longest remaining lease among `field`'s read holds
--                                     1..count, in ms: -2 when none is live
-- longest_read_hold(lock)             the same over every reader field; reader fields none of
--                                     whose holds is live (a dead client's) are dropped
-- drop_shortest_hold(lock, field, count)
--                                     deletes the key of the read hold of `field` that ends first
--                                     and moves hold `count` into its place, so the remaining
--                                     holds keep the longest leases: holds are counted, not told
--                                     apart, and none may be left with less than it believes
-- Needs no other fragment.
local function hold_key(lock, field, n)
  local tag = lock
  if not string.find(lock, '{', 1, true) then
    tag = '{' .. lock .. '}'
  end
  return tag .. ':' .. field .. ':rwlock_timeout:' .. n
end

local function is_reader_field(field)
  return field ~= 'mode' and string.sub(field, -6) ~= ':write'
end

local function longest_hold_of(lock, field, count)
  local longest = -2
  for n = 1, count do
    longest = math.max(longest, redis.call('pttl', hold_key(lock, field, n)))
  end
  return longest
end

local function longest_read_hold(lock)
  local longest = -2
  local entries = redis.call('hgetall', lock)
  for i = 1, #entries, 2 do
    local field, count = entries[i], tonumber(entries[i + 1])
    if count and is_reader_field(field) then
      local own = longest_hold_of(lock, field, count)
      if own == -2 then
        redis.call('hdel', lock, field)
      end
      longest = math.max(longest, own)
    end
  end
  return longest
end

local function drop_shortest_hold(lock, field, count)
  local shortest, at = nil, count
  for n = 1, count do
    local left = redis.call('pttl', hold_key(lock, field, n))
    if left ~= -1 and (shortest == nil or left < shortest) then
      shortest, at = left, n
    end
  end
  redis.call('del', hold_key(lock, field, at))
  if at ~= count and redis.call('exists', hold_key(lock, field, count)) == 1 then
    redis.call('rename', hold_key(lock, field, count), hold_key(lock, field, at))
  end
end
