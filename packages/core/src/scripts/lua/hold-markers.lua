--- @include "request-deadline"
-- A fragment, not a script: the hold markers that tell one acquisition's hold from another's.
-- Every acquisition attempt carries a hold id (<instance>:<n>, never reused); the hold it takes is
-- marked in a hash beside the lock, deadbolt_holds:{name} (hold id -> owner field), and its
-- release unmarks it. So a release, renewal or extend names exactly one hold: a copy that comes
-- after the hold was released finds no mark and changes nothing, and a hold that was
-- force-unlocked stays gone even when its owner takes the lock again. The lock hash stays
-- Redisson's; the markers hash lives at least as long as the lock (every TTL set on the lock is
-- carried over to it) and is dropped when the lock is deleted or taken afresh.
--
-- A hold whose lease an extend set is marked <field>\n<n>, n the number of that extend's request
-- (<instance>:<n>, from the counter of the client that holds it): a copy of that extend, or an
-- earlier extend that arrives after it, changes nothing, and the watchdog's renewals, which may
-- still be on their way, leave its lease alone.
--
-- extend_to(key, ttl)               makes an existing `key` live at least `ttl` ms (a key without
--                                   expiry gets one); never shortens it, never creates it
-- markers_of(lock)                  the markers hash of the lock hash `lock`, in its slot
-- mark_of(markers, field, hold)     nil when hold `hold` of `field` is not marked; 0 when it is
--                                   and no extend set its lease; else the number of the extend
--                                   that last did
-- is_marked(lock, markers, field, hold)
--                                   whether hold `hold` of `field` was counted and still stands
-- mark(lock, markers, field, hold)  marks a hold just counted in `lock` (keeps markers alive)
-- mark_extended(markers, field, hold, n)
--                                   marks a standing hold's lease as set by extend request n
-- unmark(markers, field, hold)      removes the mark of a standing hold of `field`; false when
--                                   there was none (released already, or never taken)
-- keep_markers(lock, markers)       makes the markers live at least as long as the lock
-- forget_marks_of(markers, field)   drops every mark of `field`: its holds ended unseen (expired)
local EXTENDED_BY = '\n'

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

local function mark_value_of(value, field)
  if value == field then
    return 0
  end
  local prefix = field .. EXTENDED_BY
  if value and string.sub(value, 1, #prefix) == prefix then
    return tonumber(string.sub(value, #prefix + 1))
  end
  return nil
end

local function mark_of(markers, field, hold)
  return mark_value_of(redis.call('hget', markers, hold), field)
end

local function is_marked(lock, markers, field, hold)
  return mark_of(markers, field, hold) ~= nil and redis.call('hexists', lock, field) == 1
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

local function mark_extended(markers, field, hold, n)
  redis.call('hset', markers, hold, field .. EXTENDED_BY .. n)
end

local function unmark(markers, field, hold)
  if mark_of(markers, field, hold) == nil then
    return false
  end
  redis.call('hdel', markers, hold)
  return true
end

local function forget_marks_of(markers, field)
  local marks = redis.call('hgetall', markers)
  for i = 1, #marks, 2 do
    if mark_value_of(marks[i + 1], field) ~= nil then
      redis.call('hdel', markers, marks[i])
    end
  end
end
