import type { Backend } from '../backends/index.js';
import { now } from './timing.js';

/** A lock's state in Redis, read in one script call (so every part is of one instant). */
export interface ObservedLock {
  /** PTTL of the lock's hash: -2 when absent, -1 without expiry. */
  readonly ttl: number;
  /** The hash's owner fields and their hold counts (a read-write lock's `mode` left out). */
  readonly fields: ReadonlyMap<string, number>;
  /** A read-write lock's `mode` field, when set. */
  readonly mode: string | undefined;
  /**
   * For each reader field of a read-write lock: the longest PTTL among its per-hold keys
   * (`{name}:<field>:rwlock_timeout:<n>`, n = 1..count); -2 when none is live.
   */
  readonly readerKeyTtl: ReadonlyMap<string, number>;
  /** When the read was sent and answered, on the monotonic clock. */
  readonly sentAt: number;
  readonly at: number;
}

// Reads the hash, its PTTL and, for a read-write lock (ARGV[1] = 'rw'), the longest PTTL of each
// reader field's hold keys. Those keys share the lock's slot, as the rwlock scripts rely on.
const OBSERVE = `
local lock = KEYS[1]
local entries = redis.call('hgetall', lock)
local ttl = redis.call('pttl', lock)
local tag = lock
if not string.find(lock, '{', 1, true) then tag = '{' .. lock .. '}' end
local holds = {}
for i = 1, #entries, 2 do
  local field, count = entries[i], tonumber(entries[i + 1])
  local best = -2
  if ARGV[1] == 'rw' and count and field ~= 'mode' and string.sub(field, -6) ~= ':write' then
    for n = 1, count do
      best = math.max(best, redis.call('pttl', tag .. ':' .. field .. ':rwlock_timeout:' .. n))
    end
  end
  holds[#holds + 1] = tostring(best)
end
return { ttl, entries, holds }
`;

/** Reads the lock `name` as it is in Redis now, with a raw command on the master that owns it. */
export async function observeLock(backend: Backend, name: string, readWrite: boolean): Promise<ObservedLock> {
  const sentAt = now();
  const reply = await backend.command(['EVAL', OBSERVE, 1, name, readWrite ? 'rw' : 'plain'], name);
  const at = now();
  if (!Array.isArray(reply) || reply.length !== 3)
    throw new Error(`unexpected reply to the observe script: ${String(reply)}`);
  const [ttl, entries, holds] = reply as [unknown, unknown, unknown];
  const flat = Array.isArray(entries) ? entries.map(String) : [];
  const keyTtls = Array.isArray(holds) ? holds.map(Number) : [];
  const fields = new Map<string, number>();
  const readerKeyTtl = new Map<string, number>();
  let mode: string | undefined;
  for (let i = 0; i < flat.length; i += 2) {
    const field = flat[i] ?? '';
    const value = flat[i + 1] ?? '';
    if (readWrite && field === 'mode') {
      mode = value;
      continue;
    }
    fields.set(field, Number(value));
    if (readWrite && !field.endsWith(':write')) readerKeyTtl.set(field, keyTtls[i / 2] ?? -2);
  }
  return { ttl: Number(ttl), fields, mode, readerKeyTtl, sentAt, at };
}
