import { checkDuration, checkOptions, checkName } from '../options/validate.js';
import { InvalidArgumentError } from '../errors/LockError.js';
import { resolveLocalHandoffOptions, type LocalHandoffOptions } from '../handoff/LocalHandoffOptions.js';
import {
  resolveReplicaSyncOptions,
  type ReplicaSyncOptions,
  type ResolvedReplicaSyncOptions,
} from '../replication/ReplicaSyncOptions.js';

/** How lock channels are subscribed and published. */
export type PubSubMode = 'auto' | 'classic' | 'sharded';

/** Options of a {@link LockClient}. Every time is in milliseconds. */
export interface LockClientOptions {
  /**
   * The lease of a lock taken without `leaseTime`; the watchdog renews it every third of this
   * while the lock is held. Redisson's `lockWatchdogTimeout`. Default 30 000, at least 30.
   */
  watchdogTimeout?: number;
  /**
   * How long `acquire` and `withLock` wait, for every kind of lock and semaphore of this client,
   * when the call gives no `waitTime` (a call's own `waitTime` wins; `tryAcquire` still defaults to
   * 0). Set it where nothing should wait for long, such as a request handler: a lock that stays
   * taken then fails the request with `LockWaitTimeoutError` instead of hanging it. Default
   * `Infinity`: wait until acquired, as Redisson's `lock()`.
   */
  defaultWaitTime?: number;
  /**
   * How long one call to Redis may take before it fails with `RedisUnavailableError`.
   * Default 10 000.
   */
  commandTimeout?: number;
  /**
   * `classic` (SUBSCRIBE/PUBLISH), `sharded` (SSUBSCRIBE/SPUBLISH, Redis 7) or `auto`: sharded on
   * a cluster (every supported server, Redis 7.0 or later, has it), classic otherwise, as Redisson
   * does on Redis 7. Java and Node services sharing locks
   * must agree. Default `auto`.
   */
  pubsub?: PubSubMode;
  /**
   * This client's id, the first half of every owner field. Default: a random UUID, like
   * Redisson's per-client id. Set it only to share owners with another process on purpose.
   */
  clientId?: string;
  /**
   * Wait for replicas to acknowledge every acquisition and release (of locks of every kind and of
   * the semaphores' permits) and every change of a count-down latch's count, and fail what they
   * did not (see {@link ReplicaSyncOptions}). Default: off, at no cost.
   */
  replicaSync?: ReplicaSyncOptions;
  /**
   * Pass a released lock straight to another task of this client that waits for it, in the
   * release's own script, instead of waking every process (see {@link LocalHandoffOptions}).
   * `true` or an object: on, with limits; `false`: off, every release goes to everyone, as in
   * Redisson. Default: on, at most 4 consecutive passes or 20 ms.
   */
  localHandoff?: boolean | LocalHandoffOptions;
  /**
   * What to do when the server's `maxmemory-policy` may evict lock keys (`allkeys-*`, or
   * `volatile-*`, since lock keys carry TTLs): an evicted lock key is a lock held twice. The
   * client reads the policy once, with `INFO memory`, on its first operation.
   * - `warn`: emit `evictionRisk` once; with no listener, a process warning
   *   (`DeadboltEvictionRisk`) instead, as Node reports an unheard `error`.
   * - `throw`: every operation of the client rejects with `EvictionRiskError`.
   * - `ignore`: no check, no `INFO` sent.
   *
   * Default `warn`.
   */
  evictionPolicy?: 'warn' | 'throw' | 'ignore';
}

/** Options with defaults applied; `replicaSync` and `localHandoff` are `undefined` when off. */
export type ResolvedLockClientOptions = Required<Omit<LockClientOptions, 'replicaSync' | 'localHandoff'>> & {
  readonly replicaSync: ResolvedReplicaSyncOptions | undefined;
  readonly localHandoff: Readonly<Required<LocalHandoffOptions>> | undefined;
};

const KNOWN = [
  'watchdogTimeout',
  'defaultWaitTime',
  'commandTimeout',
  'pubsub',
  'clientId',
  'replicaSync',
  'localHandoff',
  'evictionPolicy',
] as const;
const EVICTION_MODES: readonly NonNullable<LockClientOptions['evictionPolicy']>[] = ['warn', 'throw', 'ignore'];
const PUBSUB_MODES: readonly PubSubMode[] = ['auto', 'classic', 'sharded'];

/** Checks options and applies defaults. */
export function resolveClientOptions(value: unknown, defaultClientId: () => string): ResolvedLockClientOptions {
  const options = checkOptions<LockClientOptions>(value, KNOWN);
  const pubsub = options.pubsub ?? 'auto';
  if (!PUBSUB_MODES.includes(pubsub)) {
    throw new InvalidArgumentError(
      'options.pubsub',
      `expected one of ${PUBSUB_MODES.join(', ')}, got ${String(pubsub)}`,
    );
  }
  const evictionPolicy = options.evictionPolicy ?? 'warn';
  if (!EVICTION_MODES.includes(evictionPolicy)) {
    throw new InvalidArgumentError(
      'options.evictionPolicy',
      `expected one of ${EVICTION_MODES.join(', ')}, got ${String(evictionPolicy)}`,
    );
  }
  const clientId = options.clientId === undefined ? defaultClientId() : checkName(options.clientId, 'options.clientId');
  if (clientId.includes(':')) throw new InvalidArgumentError('options.clientId', 'must not contain ":"');
  return {
    watchdogTimeout: checkDuration(options.watchdogTimeout ?? 30_000, 'options.watchdogTimeout', { min: 30 }),
    defaultWaitTime: checkDuration(options.defaultWaitTime ?? Infinity, 'options.defaultWaitTime', {
      allowInfinity: true,
    }),
    commandTimeout: checkDuration(options.commandTimeout ?? 10_000, 'options.commandTimeout', { min: 1 }),
    pubsub,
    clientId,
    replicaSync: resolveReplicaSyncOptions(options.replicaSync),
    localHandoff: resolveLocalHandoffOptions(options.localHandoff),
    evictionPolicy,
  };
}
