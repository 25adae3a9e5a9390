-- A fragment, not a script: the hold markers that make every request that changes a lock safe to
-- run twice. A driver re-sends a request whose reply it lost after a reconnect, after any delay.
-- Every acquisition attempt carries a hold id (<instance>:<n>, never reused); the hold it takes
-- is marked in a hash beside the lock, deadbolt_holds:{name} (hold id -> owner field), and its
-- release unmarks it. So a re-sent acquisition finds its mark and counts nothing again, and a
-- re-sent release finds none and releases nothing again, however late it comes. The lock hash
-- stays Redisson's; the markers hash lives at least as long as the lock (every TTL set on the
-- lock is carried over to it) and is dropped when the lock is deleted or taken afresh.
--
-- extend_to(key, ttl)               makes an existing `key` live at least `ttl` ms (a key without
--                                   expiry gets one); never shortens it, never creates it
-- markers_of(lock)                  the markers hash of the lock hash `lock`, in its slot
-- is_marked(lock, markers, field, hold)
--                                   whether hold `hold` of `field` was counted and still stands
-- mark(lock, markers, field, hold)  marks a hold just counted in `lock` (keeps markers alive)
-- unmark(markers, field, hold)      removes the mark of a standing hold of `field`; false when
--                                   there was none (released already, or never taken)
-- keep_markers(lock, markers)       makes the markers live at least as long as the lock
-- forget_marks_of(markers, field)   drops every mark of `field`: its holds ended unseen (expired)
local function extend_to(key, ttl)
  local left = redis.call('pttl', key)
  if left == -1 or (left >= 0 and left < ttl) then
    redis.call('pexpire', key, ttl)
  end
end

local function markers_of(lock)
  if string.find(lock, '{', 1, true) then
    return 'deadbolt_holds:' .. lock
  end
  return 'deadbolt_holds:{' .. lock .. '}'
end

local function is_marked(lock, markers, field, hold)
  return redis.call('hget', markers, hold) == field and redis.call('hexists', lock, field) == 1
end

local function keep_markers(lock, markers)
  local ttl = redis.call('pttl', lock)
  if ttl == -1 then
    redis.call('persist', markers)
  elseif ttl > 0 then
    extend_to(markers, ttl)
  end
end

local function mark(lock, markers, field, hold)
  redis.call('hset', markers, hold, field)
  keep_markers(lock, markers)
end

local function unmark(markers, field, hold)
  if redis.call('hget', markers, hold) ~= field then
    return false
  end
  redis.call('hdel', markers, hold)
  return true
end

local function forget_marks_of(markers, field)
  local marks = redis.call('hgetall', markers)
  for i = 1, #marks, 2 do
    if marks[i + 1] == field then
      redis.call('hdel', markers, marks[i])
    end
  end
end
