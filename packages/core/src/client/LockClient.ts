import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { ClientClosedError, type LockLostError } from '../errors/LockError.js';
import type { Executor } from '../executor/Executor.js';
import { Lock } from '../lock/Lock.js';
import { resolveClientOptions, type LockClientOptions, type ResolvedLockClientOptions } from './LockClientOptions.js';
import { checkMethods } from '../options/validate.js';
import { newGeneratedOwner } from '../owner/generatedOwners.js';
import { ChannelHub } from '../pubsub/ChannelHub.js';
import { ReplicaSync } from '../replication/ReplicaSync.js';
import { coreScripts } from '../scripts/coreScripts.js';
import { ScriptRunner } from '../scripts/ScriptRunner.js';
import { RenewalScheduler, type RenewalTarget } from '../watchdog/RenewalScheduler.js';

/** What the `lockLost` event reports. */
export interface LockLostEvent {
  /** The Redis key of the lost lock. */
  readonly key: string;
  /** The owner field (`<clientId>:<ownerId>`) that held it. */
  readonly field: string;
  /** Why it was lost; also the reason of each held lock's aborted signal. */
  readonly error: LockLostError;
}

/** Events of a {@link LockClient}. */
export interface LockClientEvents {
  /** The watchdog found a held lock gone, or could not reach Redis before its lease ended. */
  lockLost: [event: LockLostEvent];
}

// What a LockClient calls on its executor.
const EXECUTOR_METHODS = ['evalsha', 'eval', 'command', 'subscribe', 'unsubscribe', 'listen', 'close'] as const;

// Redis 7.0.0 as REDIS_VERSION_NUM reports it: the first version with sharded pub/sub.
const REDIS_7 = 0x070000;

/**
 * The entry point: one per application and Redis deployment. It owns the pieces every lock
 * kind shares: the script runner, the pub/sub hub (one subscription per channel however many
 * local waiters), the watchdog and the client id.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * import { LockClient } from '@deadbolt/core';
 * import { ioredisExecutor } from '@deadbolt/adapter-ioredis';
 *
 * const redis = new Redis(process.env.REDIS_URL ?? 'redis://localhost:6379');
 * const locks = new LockClient(ioredisExecutor(redis));
 *
 * const pages = await locks.lock('report:2026-11').withLock(async (signal) => {
 *   // One holder at a time across every process; `signal` aborts if the lock is lost.
 *   console.log(`rendering the report, lock lost: ${signal.aborted}`);
 *   return 12;
 * });
 * console.log(`released the lock; the report has ${pages} pages`);
 *
 * await locks.close(); // closes what Deadbolt opened; your `redis` stays open
 * ```
 */
export class LockClient extends EventEmitter<LockClientEvents> {
  /** This client's id: the first half of every owner field it writes. */
  readonly id: string;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedLockClientOptions>;
  /** Runs scripts for every lock of this client. For lock kind authors. */
  readonly scripts: ScriptRunner;
  /** The shared pub/sub subscriptions of waiters. For lock kind authors. */
  readonly channels: ChannelHub;
  /** The watchdog that renews every held lock of this client. For lock kind authors. */
  readonly renewals: RenewalScheduler;
  /** Waits for replicas after acquisitions and releases; `undefined` when replica sync is off. For lock kind authors. */
  readonly replicaSync: ReplicaSync | undefined;
  readonly #executor: Executor;
  #sharded: Promise<boolean> | undefined;
  readonly #instance = randomUUID();
  #nextRequest = 0;
  #closing: Promise<void> | undefined;

  /**
   * @param executor - an adapter over your Redis client, e.g. `ioredisExecutor(redis)`
   * @param options - see {@link LockClientOptions}
   * @throws {@link InvalidArgumentError} for something other than an executor, an unknown option or an invalid value
   */
  constructor(executor: Executor, options?: LockClientOptions) {
    super();
    checkMethods(executor, 'executor', EXECUTOR_METHODS, 'an executor from an adapter, such as ioredisExecutor(redis)');
    this.options = Object.freeze(resolveClientOptions(options, randomUUID));
    this.id = this.options.clientId;
    this.#executor = executor;
    this.scripts = new ScriptRunner(executor, this.options.commandTimeout);
    this.channels = new ChannelHub(executor, () => this.shardedPubSub(), this.options.commandTimeout);
    this.renewals = new RenewalScheduler(this.scripts, {
      lease: this.options.watchdogTimeout,
      isCluster: executor.isCluster,
      onLost: (target: RenewalTarget, error: LockLostError) => this.emit('lockLost', { key: target.key, field: target.field, error }),
    });
    const { replicaSync } = this.options;
    this.replicaSync = replicaSync && new ReplicaSync(executor, replicaSync, this.options.commandTimeout);
    executor.listen({
      onMessage: (channel, message) => this.channels.deliver(channel, message),
      onSubscriberReconnect: () => this.channels.wakeEveryone(),
    });
  }

  /**
   * A handle on the reentrant lock named `name` (the Redis key). Handles are cheap and may be
   * shared by any number of concurrent tasks: each acquisition has its own owner.
   */
  lock(name: string): Lock {
    return new Lock(this, name);
  }

  /** `true` once {@link LockClient.close} was called. */
  get closed(): boolean {
    return this.#closing !== undefined;
  }

  /** Throws {@link ClientClosedError} once the client is closed. For lock kind authors. */
  assertOpen(): void {
    if (this.#closing) throw new ClientClosedError();
  }

  /**
   * A fresh owner id for an acquisition that names none and runs outside a `withLock` scope:
   * `#<n>`, unique in the process, in a namespace that owner names given by users cannot enter.
   */
  newOwnerId(): string {
    return newGeneratedOwner();
  }

  /**
   * A unique id, `<instance>:<n>`, for one acquisition attempt: the hold it takes is marked and
   * later released and extended by it. `<instance>` is random per client object, not the
   * `clientId`: clients that share a `clientId` on purpose must still never issue the same hold id,
   * or one's acquisition would count as the other's. For lock kind authors.
   */
  newRequestId(): string {
    return `${this.#instance}:${++this.#nextRequest}`;
  }

  /** Whether lock channels use sharded pub/sub, decided once per client. For lock kind authors. */
  shardedPubSub(): Promise<boolean> {
    if (!this.#sharded) {
      const { pubsub } = this.options;
      this.#sharded =
        pubsub === 'auto'
          ? this.#executor.isCluster
            ? this.scripts.run(coreScripts.serverVersion, [], []).then((version) => Number(version) >= REDIS_7)
            : Promise.resolve(false)
          : Promise.resolve(pubsub === 'sharded');
      // A failed probe (Redis down) is asked again next time instead of being remembered.
      this.#sharded.catch(() => (this.#sharded = undefined));
    }
    return this.#sharded;
  }

  /** The command lock scripts publish releases with: `publish` or `spublish`. For lock kind authors. */
  async publishCommand(): Promise<'publish' | 'spublish'> {
    return (await this.shardedPubSub()) ? 'spublish' : 'publish';
  }

  /**
   * Closes the client: renewal stops (held locks then expire by their lease), every wait in
   * progress ends with {@link ClientClosedError}, and the adapter closes the connections it
   * opened. Your Redis client stays open. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      this.renewals.stop();
      this.channels.close(new ClientClosedError());
      await this.#executor.close();
    })();
    return this.#closing;
  }

  /** Same as {@link LockClient.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }
}

