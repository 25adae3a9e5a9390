import { randomUUID } from 'node:crypto';
import type { RespArgument, RespValue } from '@deadbolt/test-harness';
import type { Backend } from '../backends/index.js';
import { CountDownLatchPubSub } from './CountDownLatchPubSub.js';
import { LockPubSub } from './LockPubSub.js';
import { LockRenewalScheduler } from './LockRenewalScheduler.js';
import { resolveRedissonConfig, type RedissonConfig, type ResolvedRedissonConfig } from './RedissonConfig.js';
import { RedissonConnections } from './RedissonConnections.js';
import { RedissonCountDownLatch } from './RedissonCountDownLatch.js';
import { RedissonFairLock } from './RedissonFairLock.js';
import { RedissonFencedLock } from './RedissonFencedLock.js';
import { RedissonPermitExpirableSemaphore } from './RedissonPermitExpirableSemaphore.js';
import { RedissonLock } from './RedissonLock.js';
import { RedissonReadWriteLock } from './RedissonReadWriteLock.js';
import { RedissonSemaphore } from './RedissonSemaphore.js';
import { RedissonSpinLock, type RedissonBackOff } from './RedissonSpinLock.js';
import { RedissonSubscriber } from './RedissonSubscriber.js';
import { SemaphorePubSub } from './SemaphorePubSub.js';

/** Thrown by a peer's operation once the peer is shut down (a Java process that is gone). */
export class PeerShutdownError extends Error {
  constructor() {
    super('the Redisson peer is shut down');
    this.name = 'PeerShutdownError';
  }
}

/**
 * A Java process using Redisson, played in the test process: what its `RedissonClient` does on
 * the wire, from Redisson's source. It has a client id (a UUID, the first half of every lock
 * field), hands out thread ids, runs its lock scripts over raw connections routed to the master
 * of each key, subscribes its lock channels (so that Deadbolt's unlocks wake its waiting
 * threads), and runs Redisson's renewal tasks on timers.
 *
 * Start one with {@link RedissonPeer.start} (or `useRedissonPeers` in a test, which shuts every
 * peer down after each test). {@link RedissonPeer.stopRenewals} is a process that stopped
 * renewing (paused, or about to die); {@link RedissonPeer.shutdown} ends everything: timers,
 * waiting threads, connections. Neither unlocks anything.
 */
export class RedissonPeer {
  /** The client id (`ServiceManager.getId()`). */
  readonly id: string;
  readonly config: ResolvedRedissonConfig;
  /** `publish`, or `spublish` with sharded pub/sub: the command the scripts publish with. */
  readonly publishCommand: 'publish' | 'spublish';
  /** The subscriptions of waiting threads. */
  readonly pubSub: LockPubSub;
  /** The subscriptions of threads waiting on a semaphore (`SemaphorePubSub`). */
  readonly semaphorePubSub: SemaphorePubSub;
  /** The subscriptions of threads waiting on a count-down latch (`CountDownLatchPubSub`). */
  readonly countDownLatchPubSub: CountDownLatchPubSub;
  /** The renewal tasks: `lockTask` and `readLockTask`. */
  readonly renewals: LockRenewalScheduler;
  readonly #connections: RedissonConnections;
  readonly #subscriber: RedissonSubscriber;
  #threads = 0;
  #shutdown = false;

  private constructor(
    config: ResolvedRedissonConfig,
    connections: RedissonConnections,
    subscriber: RedissonSubscriber,
    pubSub: LockPubSub,
    sharded: boolean,
    kindPubSubs: { readonly semaphores: SemaphorePubSub; readonly latches: CountDownLatchPubSub },
  ) {
    this.config = config;
    this.id = config.id;
    this.#connections = connections;
    this.#subscriber = subscriber;
    this.pubSub = pubSub;
    this.semaphorePubSub = kindPubSubs.semaphores;
    this.countDownLatchPubSub = kindPubSubs.latches;
    this.publishCommand = sharded ? 'spublish' : 'publish';
    this.renewals = new LockRenewalScheduler({
      lockWatchdogTimeout: config.lockWatchdogTimeout,
      lockWatchdogBatchSize: config.lockWatchdogBatchSize,
      isCluster: connections.isCluster,
      eval: (script, keys, args) => this.eval(script, keys, args),
    });
  }

  /**
   * Connects a peer to `backend`. With `shardedSubscriptionMode: 'auto'` a cluster whose
   * servers answer `PUBSUB SHARDNUMSUB` gets sharded pub/sub, as Redisson's cluster manager decides.
   */
  static async start(backend: Backend, config: RedissonConfig = {}): Promise<RedissonPeer> {
    const resolved = resolveRedissonConfig(config, randomUUID);
    const connectionName = `redisson-peer:${resolved.id}`;
    const connections = new RedissonConnections(backend, connectionName);
    try {
      const sharded = await decideSharded(resolved, connections);
      // The handler runs only once messages arrive, after the pub/sub objects below exist.
      const subscriber = new RedissonSubscriber(
        (channel) => connections.nodeFor(channel),
        (channel, message) => {
          pubSub.onMessage(channel, message);
          kindPubSubs.semaphores.onMessage(channel, message);
          kindPubSubs.latches.onMessage(channel, message);
        },
        connectionName,
      );
      const pubSub = new LockPubSub(subscriber, sharded);
      const kindPubSubs = {
        semaphores: new SemaphorePubSub(subscriber, sharded),
        latches: new CountDownLatchPubSub(subscriber, sharded),
      };
      return new RedissonPeer(resolved, connections, subscriber, pubSub, sharded, kindPubSubs);
    } catch (error) {
      await connections.close();
      throw error;
    }
  }

  /** A new thread id: 1, 2, 3, ... per peer. */
  newThreadId(): number {
    return ++this.#threads;
  }

  /** A new request id for an unlock latch (`ServiceManager.generateId()`). */
  generateId(): string {
    return randomUUID().replaceAll('-', '');
  }

  /** Whether {@link RedissonPeer.shutdown} was called. */
  get isShutdown(): boolean {
    return this.#shutdown;
  }

  /** The channels the peer's waiting threads have subscribed (confirmed by the server), sorted. */
  get subscribedChannels(): string[] {
    return this.#subscriber.channels;
  }

  /** @throws {@link PeerShutdownError} once the peer is shut down */
  assertRunning(): void {
    if (this.#shutdown) throw new PeerShutdownError();
  }

  /** Runs `script` with EVAL on the master that serves `keys[0]`. */
  eval(script: string, keys: readonly string[], args: readonly (string | number)[]): Promise<RespValue> {
    const [first = ''] = keys;
    return this.#connections.command(first, ['EVAL', script, keys.length, ...keys, ...args]);
  }

  /** Runs one plain command on the master that serves `key`. */
  command(key: string, args: readonly RespArgument[]): Promise<RespValue> {
    return this.#connections.command(key, args);
  }

  /** `getLock(name)`: a reentrant lock. */
  getLock(name: string): RedissonLock {
    return new RedissonLock(this, name);
  }

  /** `getFairLock(name)`. */
  getFairLock(name: string): RedissonFairLock {
    return new RedissonFairLock(this, name);
  }

  /** `getReadWriteLock(name)`. */
  getReadWriteLock(name: string): RedissonReadWriteLock {
    return new RedissonReadWriteLock(this, name);
  }

  /** `getFencedLock(name)`. */
  getFencedLock(name: string): RedissonFencedLock {
    return new RedissonFencedLock(this, name);
  }

  /** `getSemaphore(name)`: an `RSemaphore`. */
  getSemaphore(name: string): RedissonSemaphore {
    return new RedissonSemaphore(this, name);
  }

  /** `getPermitExpirableSemaphore(name)`: an `RPermitExpirableSemaphore`. */
  getPermitExpirableSemaphore(name: string): RedissonPermitExpirableSemaphore {
    return new RedissonPermitExpirableSemaphore(this, name);
  }

  /** `getSpinLock(name, backOff)`: an `RSpinLock`, with `LockOptions.defaults()` unless given a backoff. */
  getSpinLock(name: string, backOff?: RedissonBackOff): RedissonSpinLock {
    return new RedissonSpinLock(this, name, backOff);
  }

  /** `getCountDownLatch(name)`: an `RCountDownLatch`. */
  getCountDownLatch(name: string): RedissonCountDownLatch {
    return new RedissonCountDownLatch(this, name);
  }

  /**
   * Stops both renewal tasks for good, unlocking nothing: the locks this process holds now
   * expire within `lockWatchdogTimeout`, as those of a Java process that died or froze.
   */
  stopRenewals(): void {
    this.renewals.stop();
  }

  /**
   * Ends the peer: renewals stop, every waiting thread fails with {@link PeerShutdownError},
   * subscriptions and connections close. Nothing is unlocked. Idempotent.
   */
  async shutdown(): Promise<void> {
    if (this.#shutdown) return;
    this.#shutdown = true;
    this.renewals.stop();
    this.pubSub.interruptAll();
    this.semaphorePubSub.interruptAll();
    this.countDownLatchPubSub.interruptAll();
    await Promise.all([this.#subscriber.close(), this.#connections.close()]);
  }
}

async function decideSharded(config: ResolvedRedissonConfig, connections: RedissonConnections): Promise<boolean> {
  if (config.shardedSubscriptionMode !== 'auto') return config.shardedSubscriptionMode === 'on';
  if (!connections.isCluster) return false;
  try {
    await connections.commandOnAnyNode(['PUBSUB', 'SHARDNUMSUB', '0']);
    return true;
  } catch {
    return false;
  }
}
