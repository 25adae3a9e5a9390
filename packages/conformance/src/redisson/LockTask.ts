import { RenewalTask } from './RenewalTask.js';

// For each lock still held by its field, sets the lease again; replies 1 (renewed) or 0 (gone)
// per key. KEYS: lock hashes of one slot. ARGV[1]: lease; ARGV[i + 1]: the field for KEYS[i].
const RENEW_HELD_LOCKS = `
local renewed = {}
for i, lock in ipairs(KEYS) do
  local held = redis.call('hexists', lock, ARGV[i + 1]) == 1
  if held then
    redis.call('pexpire', lock, ARGV[1])
  end
  renewed[i] = held and 1 or 0
end
return renewed`;

/**
 * Redisson's `LockTask`, the watchdog of the reentrant, fair, fenced and write locks
 * (`renewExpiration`): every third of `lockWatchdogTimeout` it sets the lease of every lock the
 * client holds without a lease time back to `lockWatchdogTimeout`, but only where the hash still
 * has the field of the lock's first renewing thread. A lock found gone stops being renewed.
 */
export class LockTask extends RenewalTask {
  /** Renews lock `name` for `threadId`, whose field is `lockName` (one more acquisition). */
  add(name: string, lockName: string, threadId: number): void {
    this.register(name, threadId, lockName);
  }

  protected async renewBatch(names: readonly string[]) {
    const keys: string[] = [];
    const fields: string[] = [];
    const threads = new Map<string, number[]>();
    for (const name of names) {
      const entry = this.entries.get(name);
      const threadId = entry?.firstThreadId;
      const lockName = threadId === undefined ? undefined : entry?.lockNames.get(threadId);
      if (threadId === undefined || lockName === undefined) continue;
      keys.push(name);
      fields.push(lockName);
      threads.set(name, [threadId]);
    }
    if (keys.length === 0) return { gone: [], threads };
    const reply = await this.host.eval(RENEW_HELD_LOCKS, keys, [this.host.lockWatchdogTimeout, ...fields]);
    const renewed = Array.isArray(reply) ? reply : [];
    return { gone: keys.filter((_, i) => Number(renewed[i]) !== 1), threads };
  }
}
