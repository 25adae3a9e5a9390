import type { RespValue } from '@deadbolt/test-harness';
import { UNLOCK_MESSAGE } from './LockPubSub.js';
import { RedissonLock } from './RedissonLock.js';
import { prefixName, unlockLatchName } from './redissonNames.js';
import type { RedissonPeer } from './RedissonPeer.js';

// The fragment every fair-lock script starts with: while the waiter at the head of the queue
// (KEYS[2]) has a deadline in the sorted set (KEYS[3]) that is not after `now`, it is presumed
// gone and removed from both; no other deadline changes. A head without a deadline stays.
const DROP_STALE_HEADS = `
local function drop_stale_heads(now)
  while true do
    local first = redis.call('lindex', KEYS[2], 0)
    if not first then
      return
    end
    local deadline = redis.call('zscore', KEYS[3], first)
    if not deadline or tonumber(deadline) > now then
      return
    end
    redis.call('zrem', KEYS[3], first)
    redis.call('lpop', KEYS[2])
  end
end`;

// Takes the free lock when nobody queues or the caller is the head: it leaves the queue and every
// remaining deadline comes `wait` ms closer. Then re-entry. Both granting paths publish nothing.
const TAKE_OR_REENTER = `
local function take_or_reenter(lease, field, wait)
  local head = redis.call('lindex', KEYS[2], 0)
  if redis.call('exists', KEYS[1]) == 0 and (not head or head == field) then
    redis.call('lpop', KEYS[2])
    redis.call('zrem', KEYS[3], field)
    for _, waiter in ipairs(redis.call('zrange', KEYS[3], 0, -1)) do
      redis.call('zincrby', KEYS[3], -wait, waiter)
    end
    redis.call('hset', KEYS[1], field, 1)
    redis.call('pexpire', KEYS[1], lease)
    return true
  end
  if redis.call('hexists', KEYS[1], field) == 1 then
    redis.call('hincrby', KEYS[1], field, 1)
    redis.call('pexpire', KEYS[1], lease)
    return true
  end
  return false
end`;

// The attempt of lock() and tryLock(wait): takes or re-enters (nil); a queued caller gets the
// lock's PTTL, never below 0 (0 while the lock is free but another waiter is first); a new caller
// joins the tail with deadline = (the tail's deadline, else now + the lock's PTTL) + wait and gets
// that span (the tail's deadline - now, or the PTTL) back.
// KEYS: hash, queue, deadlines. ARGV: lease, field, wait, now.
const LOCK = `${DROP_STALE_HEADS}
${TAKE_OR_REENTER}
local field, wait, now = ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
drop_stale_heads(now)
if take_or_reenter(ARGV[1], field, wait) then
  return nil
end
if redis.call('zscore', KEYS[3], field) then
  return math.max(0, redis.call('pttl', KEYS[1]))
end
local tail = redis.call('lindex', KEYS[2], -1)
local after = tail and tail ~= field and redis.call('zscore', KEYS[3], tail)
local ttl
if after then
  ttl = tonumber(after) - now
else
  ttl = redis.call('pttl', KEYS[1])
end
if redis.call('zadd', KEYS[3], ttl + wait + now, field) == 1 then
  redis.call('rpush', KEYS[2], field)
end
return ttl`;

// The attempt of tryLock() without a wait: takes or re-enters (nil), else 1; never queues.
// KEYS: hash, queue, deadlines. ARGV: lease, field, now, wait.
const TRY_LOCK_ONCE = `${DROP_STALE_HEADS}
${TAKE_OR_REENTER}
drop_stale_heads(tonumber(ARGV[3]))
if take_or_reenter(ARGV[1], ARGV[2], tonumber(ARGV[4])) then
  return nil
end
return 1`;

// A waiter whose wait ran out leaves: every waiter behind it gets its deadline `wait` ms closer,
// and it is removed from the queue and the deadlines. Publishes nothing.
// KEYS: queue, deadlines. ARGV: field, wait.
const ACQUIRE_FAILED = `
local queue = redis.call('lrange', KEYS[1], 0, -1)
local at = #queue + 1
for i, waiter in ipairs(queue) do
  if waiter == ARGV[1] then
    at = i
    break
  end
end
for i = at + 1, #queue do
  redis.call('zincrby', KEYS[2], -tonumber(ARGV[2]), queue[i])
end
redis.call('zrem', KEYS[2], ARGV[1])
redis.call('lrem', KEYS[1], 0, ARGV[1])`;

// Releases one hold (latched per request, as the reentrant lock's unlock). When the lock is, or
// becomes, free, the waiter at the head of the queue (after dropping stale heads) is woken with
// ARGV[1] on its own channel <lock channel>:<its field>; nobody else is.
// KEYS: hash, queue, deadlines, lock channel, latch. ARGV: message, lease, field, now, publish command, latch ms.
const UNLOCK = `${DROP_STALE_HEADS}
local seen = redis.call('get', KEYS[5])
if seen then
  return tonumber(seen)
end
local function wake_head()
  local head = redis.call('lindex', KEYS[2], 0)
  if head then
    redis.call(ARGV[5], KEYS[4] .. ':' .. head, ARGV[1])
  end
end
drop_stale_heads(tonumber(ARGV[4]))
if redis.call('exists', KEYS[1]) == 0 then
  wake_head()
  redis.call('set', KEYS[5], 1, 'px', ARGV[6])
  return 1
end
if redis.call('hexists', KEYS[1], ARGV[3]) == 0 then
  return nil
end
if redis.call('hincrby', KEYS[1], ARGV[3], -1) > 0 then
  redis.call('pexpire', KEYS[1], ARGV[2])
  redis.call('set', KEYS[5], 0, 'px', ARGV[6])
  return 0
end
redis.call('del', KEYS[1])
redis.call('set', KEYS[5], 1, 'px', ARGV[6])
wake_head()
return 1`;

// Deletes the lock whoever holds it and wakes the head waiter (after dropping stale heads).
// KEYS: hash, queue, deadlines, lock channel. ARGV: message, now, publish command.
const FORCE_UNLOCK = `${DROP_STALE_HEADS}
drop_stale_heads(tonumber(ARGV[2]))
if redis.call('del', KEYS[1]) == 0 then
  return 0
end
local head = redis.call('lindex', KEYS[2], 0)
if head then
  redis.call(ARGV[3], KEYS[4] .. ':' .. head, ARGV[1])
end
return 1`;

/**
 * Redisson's `RedissonFairLock`: a queue of waiting fields (`redisson_lock_queue:{name}`) and
 * their deadlines (`redisson_lock_timeout:{name}`, wall-clock ms from the caller's clock), with
 * Redisson's rules:
 *
 * - a waiter's deadline is set once, when it joins: the deadline of the waiter ahead (or now plus
 *   the lock's PTTL) plus its wait (`waitTime`, else `fairLockWaitTimeout`); each grant moves
 *   every deadline closer by the granted waiter's wait; a waiter that gives up moves those behind
 *   it closer by its own;
 * - a head whose deadline has passed is dropped by the next script that runs;
 * - taking the lock publishes nothing; an unlock or forced unlock publishes `0` on the channel of
 *   the head waiter only, `redisson_lock__channel:{name}:<clientId>:<threadId>`, which is where
 *   each waiting thread listens;
 * - a queued attempt returns the lock's PTTL, or 0 while the lock is free and another waiter is
 *   first: a waiter behind a head that does not take the free lock retries at once, again and
 *   again (it spins);
 * - nothing sets a TTL on the queue keys.
 */
export class RedissonFairLock extends RedissonLock {
  /** `threadWaitTime`: the config's `fairLockWaitTimeout`. */
  readonly threadWaitTime: number;
  /** `redisson_lock_queue:{name}`. */
  readonly threadsQueueName: string;
  /** `redisson_lock_timeout:{name}`. */
  readonly timeoutSetName: string;

  constructor(peer: RedissonPeer, name: string) {
    super(peer, name);
    this.threadWaitTime = peer.config.fairLockWaitTimeout;
    this.threadsQueueName = prefixName('redisson_lock_queue', name);
    this.timeoutSetName = prefixName('redisson_lock_timeout', name);
  }

  /** One entry per waiting thread. */
  protected override entryName(threadId: number): string {
    return `${this.peer.id}:${this.name}:${threadId}`;
  }

  /** A waiting thread's own channel: `redisson_lock__channel:{name}:<clientId>:<threadId>`. */
  override waitChannel(threadId: number): string {
    return `${this.channelName}:${this.lockName(threadId)}`;
  }

  override async tryLockInnerOnce(threadId: number, leaseTime: number): Promise<boolean> {
    this.countAttempt();
    const reply = await this.peer.eval(TRY_LOCK_ONCE, this.#keys(), [
      leaseTime,
      this.lockName(threadId),
      Date.now(),
      this.threadWaitTime,
    ]);
    return reply === null;
  }

  protected override runTryLockInner(threadId: number, leaseTime: number, waitTime: number): Promise<RespValue> {
    return this.peer.eval(LOCK, this.#keys(), [leaseTime, this.lockName(threadId), this.#wait(waitTime), Date.now()]);
  }

  protected override runUnlockInner(threadId: number, requestId: string): Promise<RespValue> {
    const keys = [...this.#keys(), this.channelName, unlockLatchName(this.name, requestId)];
    const args = [
      UNLOCK_MESSAGE,
      this.internalLockLeaseTime,
      this.lockName(threadId),
      Date.now(),
      this.peer.publishCommand,
      this.peer.config.unlockLatchTimeout,
    ];
    return this.peer.eval(UNLOCK, keys, args);
  }

  protected override async acquireFailed(waitTime: number, threadId: number): Promise<void> {
    await this.peer.eval(
      ACQUIRE_FAILED,
      [this.threadsQueueName, this.timeoutSetName],
      [this.lockName(threadId), this.#wait(waitTime)],
    );
  }

  override async forceUnlock(): Promise<boolean> {
    this.cancelExpirationRenewal(null, null);
    const reply = await this.peer.eval(
      FORCE_UNLOCK,
      [...this.#keys(), this.channelName],
      [UNLOCK_MESSAGE, Date.now(), this.peer.publishCommand],
    );
    return Number(reply) === 1;
  }

  /** The queued fields, head first. */
  async queue(): Promise<string[]> {
    return (await this.peer.command(this.name, ['LRANGE', this.threadsQueueName, 0, -1])) as string[];
  }

  /** The deadline (wall-clock ms) of `threadId`'s queue entry; `null` when it has none. */
  async deadline(threadId: number): Promise<number | null> {
    const score = await this.peer.command(this.name, ['ZSCORE', this.timeoutSetName, this.lockName(threadId)]);
    return score === null ? null : Number(score);
  }

  #keys(): string[] {
    return [this.name, this.threadsQueueName, this.timeoutSetName];
  }

  // The acquisition's wait time when positive, else threadWaitTime.
  #wait(waitTime: number): number {
    return waitTime > 0 ? waitTime : this.threadWaitTime;
  }
}
