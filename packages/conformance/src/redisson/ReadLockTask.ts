import { RenewalTask } from './RenewalTask.js';

// For each read lock: every listed field that still counts holds in the hash gets the lease set
// again on each of its per-hold timeout keys (hold n: <prefix>:<field>:rwlock_timeout:<n>); when
// any field did, the hash's own TTL is set to the lease too, whatever it was before. Replies 1 or
// 0 per lock. KEYS: hash, prefix, hash, prefix, ... of one slot. ARGV[1]: lease; then per lock
// the number of its fields followed by the fields.
const RENEW_READ_LOCKS = `
local renewed = {}
local at = 2
for i = 1, #KEYS, 2 do
  local lock, prefix = KEYS[i], KEYS[i + 1]
  local fields = tonumber(ARGV[at])
  at = at + 1
  local alive = false
  for _ = 1, fields do
    local field = ARGV[at]
    at = at + 1
    local holds = tonumber(redis.call('hget', lock, field))
    if holds then
      alive = true
      for n = holds, 1, -1 do
        redis.call('pexpire', prefix .. ':' .. field .. ':rwlock_timeout:' .. n, ARGV[1])
      end
    end
  end
  if alive then
    redis.call('pexpire', lock, ARGV[1])
  end
  renewed[#renewed + 1] = alive and 1 or 0
end
return renewed`;

/**
 * Redisson's `ReadLockTask`, the watchdog of read locks taken without a lease time: every third
 * of `lockWatchdogTimeout` it sets `PEXPIRE lockWatchdogTimeout` on every per-hold timeout key of
 * every thread of this client that reads the lock, and then on the lock hash itself, whatever
 * longer TTL the hash had (another client's reader with a longer lease included).
 */
export class ReadLockTask extends RenewalTask {
  /** Renews read lock `name` for `threadId`, whose field is `lockName` and key prefix `keyPrefix`. */
  add(name: string, lockName: string, threadId: number, keyPrefix: string): void {
    this.register(name, threadId, lockName, keyPrefix);
  }

  protected async renewBatch(names: readonly string[]) {
    const keys: string[] = [];
    const args: (string | number)[] = [this.host.lockWatchdogTimeout];
    const threads = new Map<string, number[]>();
    for (const name of names) {
      const entry = this.entries.get(name);
      const first = entry?.firstThreadId;
      const keyPrefix = first === undefined ? undefined : entry?.keyPrefixes.get(first);
      if (entry === undefined || keyPrefix === undefined) continue;
      keys.push(name, keyPrefix);
      const lockNames = [...entry.lockNames.values()];
      args.push(lockNames.length, ...lockNames);
      threads.set(name, [...entry.lockNames.keys()]);
    }
    if (keys.length === 0) return { gone: [], threads };
    const reply = await this.host.eval(RENEW_READ_LOCKS, keys, args);
    const renewed = Array.isArray(reply) ? reply : [];
    const locks = keys.filter((_, i) => i % 2 === 0);
    return { gone: locks.filter((_, i) => Number(renewed[i]) !== 1), threads };
  }
}
