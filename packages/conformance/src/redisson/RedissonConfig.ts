/** How the peer's lock channels are subscribed and published, as Redisson's `ShardedSubscriptionMode`. */
export type RedissonSubscriptionMode = 'auto' | 'on' | 'off';

/**
 * The settings of a {@link RedissonPeer}, named after Redisson's `Config` (every time in
 * milliseconds). Each has Redisson's default; tests shorten the timeouts so that what takes
 * Redisson 30 s or 5 min happens in a second or two, as a Java service configured that way would.
 */
export interface RedissonConfig {
  /**
   * `lockWatchdogTimeout`: the lease of a lock taken without a lease time, and what the renewal
   * tasks set every third of it. Default 30 000.
   */
  readonly lockWatchdogTimeout?: number;
  /**
   * `fairLockWaitTimeout` (a fair lock's `threadWaitTime`): the wait a fair-lock waiter without a
   * wait time adds to the deadline of the waiter ahead of it. Default 300 000.
   */
  readonly fairLockWaitTimeout?: number;
  /**
   * How long an unlock latch (`redisson_unlock_latch:{name}:<requestId>`) remembers an unlock's
   * outcome. Redisson computes it as `(timeout + retryDelay(retryAttempts)) * retryAttempts`,
   * 14 000 to 20 000 with its defaults (timeout 3000, 4 attempts, a jittered delay of 1 to 2 s);
   * default here 20 000.
   */
  readonly unlockLatchTimeout?: number;
  /** `lockWatchdogBatchSize`: how many locks one renewal script call covers. Default 100. */
  readonly lockWatchdogBatchSize?: number;
  /**
   * Sharded pub/sub (`SSUBSCRIBE`/`SPUBLISH`): `auto` (Redisson's default) uses it on a cluster
   * whose servers answer `PUBSUB SHARDNUMSUB`, i.e. Redis 7; `on` and `off` force it.
   */
  readonly shardedSubscriptionMode?: RedissonSubscriptionMode;
  /** The client's id, the first half of every lock field. Default: a random UUID, as Redisson's. */
  readonly id?: string;
}

/** A {@link RedissonConfig} with every default applied. */
export type ResolvedRedissonConfig = Required<RedissonConfig>;

/** Redisson's `Config` defaults for what the peer uses. */
const REDISSON_DEFAULTS: Omit<ResolvedRedissonConfig, 'id'> = {
  lockWatchdogTimeout: 30_000,
  fairLockWaitTimeout: 300_000,
  unlockLatchTimeout: 20_000,
  lockWatchdogBatchSize: 100,
  shardedSubscriptionMode: 'auto',
};

/** Applies the defaults; `newId` makes the client id when none is given. */
export function resolveRedissonConfig(config: RedissonConfig, newId: () => string): ResolvedRedissonConfig {
  return { ...REDISSON_DEFAULTS, ...config, id: config.id ?? newId() };
}
