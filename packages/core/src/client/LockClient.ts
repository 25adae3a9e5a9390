import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Executor } from '../executor/Executor.js';
import { Lock } from '../lock/Lock.js';
import { checkMethods } from '../options/validate.js';
import { LOCK_RUNTIME, type LockHost, type LockRuntime } from '../runtime/LockRuntime.js';
import { ClientRuntime, type LockClientActivity } from './ClientRuntime.js';
import type { LockClientEvents } from './LockClientEvents.js';
import { lockEvents } from './LockEvents.js';
import { resolveClientOptions, type LockClientOptions, type ResolvedLockClientOptions } from './LockClientOptions.js';

// What a LockClient calls on its executor.
const EXECUTOR_METHODS = ['evalsha', 'eval', 'command', 'subscribe', 'unsubscribe', 'listen', 'close'] as const;

/**
 * The entry point: one per application and Redis deployment. It owns what every lock of every
 * kind shares: the script runner, the pub/sub subscriptions (one per channel however many local
 * waiters), the watchdog, replica sync and the client id.
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
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- the interface below documents inherited methods
export class LockClient extends EventEmitter<LockClientEvents> implements LockHost {
  /** This client's id: the first half of every owner field it writes. */
  readonly id: string;
  /** The options in force, with defaults applied. */
  readonly options: Readonly<ResolvedLockClientOptions>;
  readonly #runtime: ClientRuntime;
  #closing: Promise<void> | undefined;

  /**
   * @param executor - an adapter over your Redis client, e.g. `ioredisExecutor(redis)`
   * @param options - see {@link LockClientOptions}
   * @throws `InvalidArgumentError` for something other than an executor, an unknown option or an invalid value
   */
  constructor(executor: Executor, options?: LockClientOptions) {
    super();
    checkMethods(executor, 'executor', EXECUTOR_METHODS, 'an executor from an adapter, such as ioredisExecutor(redis)');
    this.options = Object.freeze(resolveClientOptions(options, randomUUID));
    this.id = this.options.clientId;
    this.#runtime = new ClientRuntime(executor, this.options, lockEvents(this));
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

  /**
   * What this client is busy with: the holds its watchdog keeps alive, the channels its waiters
   * are subscribed to and the locks its waiters may be passed locally. All are empty once every
   * hold is released and every wait ended, which makes it a check that nothing was left behind
   * (before a shutdown, in tests).
   */
  activity(): LockClientActivity {
    return this.#runtime.activity();
  }

  /**
   * Closes the client: renewal stops (held locks then expire by their lease), every wait in
   * progress ends with `ClientClosedError`, and the adapter closes the connections it
   * opened. Your Redis client stays open. Idempotent.
   */
  close(): Promise<void> {
    this.#closing ??= this.#runtime.close();
    return this.#closing;
  }

  /** Same as {@link LockClient.close}, for `await using`. */
  [Symbol.asyncDispose](): Promise<void> {
    return this.close();
  }

  /** Hands the client's runtime to lock kinds; they get it with `lockRuntime(client)` from `@deadbolt/core/kit`. */
  [LOCK_RUNTIME](): LockRuntime {
    return this.#runtime;
  }
}

// The listener methods LockClient inherits from EventEmitter, declared again with the client's own
// events: the reference would otherwise show them as Node's (external) members, which it hides.
// The listener's type distributes over `K`, as EventEmitter's does: for a union of events, a union
// of listeners.
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging -- EventEmitter implements them
export interface LockClient {
  /**
   * Calls `listener` with each `event` of this client, from now on ({@link LockClientEvents} lists
   * them and what each reports), e.g. `locks.on('lockLost', ({ key, error }) => log(key, error))`.
   *
   * @returns this client, to chain calls
   */
  on<K extends keyof LockClientEvents>(
    event: K,
    listener: K extends keyof LockClientEvents ? (...args: LockClientEvents[K]) => void : never,
  ): this;
  /**
   * Calls `listener` with the next `event` of this client only ({@link LockClientEvents}).
   *
   * @returns this client, to chain calls
   */
  once<K extends keyof LockClientEvents>(
    event: K,
    listener: K extends keyof LockClientEvents ? (...args: LockClientEvents[K]) => void : never,
  ): this;
  /**
   * Stops calling a `listener` that {@link LockClient.on} or {@link LockClient.once} added for `event`.
   *
   * @returns this client, to chain calls
   */
  off<K extends keyof LockClientEvents>(
    event: K,
    listener: K extends keyof LockClientEvents ? (...args: LockClientEvents[K]) => void : never,
  ): this;
}
