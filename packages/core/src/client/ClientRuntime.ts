import { randomUUID } from 'node:crypto';
import { ServerClock } from '../clock/ServerClock.js';
import { ClientClosedError, RedisUnavailableError, type LockLostError } from '../errors/LockError.js';
import { permissionDenied } from '../errors/PermissionDeniedError.js';
import type { SyncedOperation } from '../errors/ReplicaSyncError.js';
import type { Executor } from '../executor/Executor.js';
import { LocalHandoffs } from '../handoff/LocalHandoffs.js';
import { newGeneratedOwner } from '../owner/generatedOwners.js';
import { ChannelHub, type ChannelMark, type ChannelSubscription } from '../pubsub/ChannelHub.js';
import type { WakeRule } from '../pubsub/WakeRule.js';
import { ReplicaSync } from '../replication/ReplicaSync.js';
import type { CoreRuntime } from '../runtime/CoreRuntime.js';
import { runOnce, runUntilLanded } from '../runtime/runOnce.js';
import { type Call, type CommandContext, type PublishCommand } from '../scripts/Command.js';
import { ScriptRunner } from '../scripts/ScriptRunner.js';
import { RenewalScheduler, type Renewal, type RenewalTarget } from '../watchdog/RenewalScheduler.js';
import { EvictionGuard, type EvictionRisk } from './EvictionGuard.js';
import { ServerVersionGuard } from './ServerVersionGuard.js';
import type { LockEvents } from './LockEvents.js';
import type { ResolvedLockClientOptions } from './LockClientOptions.js';

/** What a client reports of its work in progress: see `LockClient.activity`. */
export interface LockClientActivity {
  /** How many holds the watchdog keeps alive or guards. */
  readonly renewing: number;
  /** The channels local waiters are subscribed to. */
  readonly channels: readonly string[];
  /**
   * How many locks have local waiters that a release may pass the lock to (the `localHandoff`
   * option); 0 when the option is off.
   */
  readonly handoffLocks: number;
}

/**
 * The runtime ({@link CoreRuntime}) of one `LockClient`: the script runner, the pub/sub hub (one
 * subscription per channel however many local waiters), the watchdog and replica sync.
 */
export class ClientRuntime implements CoreRuntime {
  readonly clientId: string;
  readonly watchdogTimeout: number;
  readonly defaultWaitTime: number;
  readonly confirmReplicas: ((name: string, operation: SyncedOperation) => Promise<void>) | undefined;
  readonly localHandoffs: LocalHandoffs | undefined;
  readonly events: LockEvents;
  readonly #options: ResolvedLockClientOptions;
  readonly #executor: Executor;
  readonly #runner: ScriptRunner;
  readonly #channels: ChannelHub;
  readonly #renewals: RenewalScheduler;
  readonly #instance = randomUUID();
  readonly #recordTtl: number;
  readonly #clock: ServerClock;
  #nextHold = 0;
  // Known once the first publishing command resolved the mode: later calls skip the await.
  #publish: PublishCommand | undefined;
  // Set once the first operation's checks (server version, pub/sub mode, eviction policy) passed.
  #ready = false;
  readonly #eviction: EvictionGuard;
  readonly #version: ServerVersionGuard;
  #closed = false;

  constructor(executor: Executor, options: ResolvedLockClientOptions, events: LockEvents) {
    this.#options = options;
    this.events = events;
    this.#executor = executor;
    this.clientId = options.clientId;
    this.watchdogTimeout = options.watchdogTimeout;
    this.defaultWaitTime = options.defaultWaitTime;
    this.#recordTtl = 2 * options.commandTimeout;
    this.#clock = new ServerClock(executor, options.commandTimeout);
    this.#runner = new ScriptRunner(executor, options.commandTimeout, (key) => this.#clock.relearn(key));
    this.#version = new ServerVersionGuard(this.#runner);
    this.#channels = new ChannelHub(executor, () => this.#shardedPubSub(), options.commandTimeout);
    this.#eviction = new EvictionGuard(options.evictionPolicy, executor, options.commandTimeout, (risk) =>
      reportEvictionRisk(events, risk),
    );
    this.#renewals = new RenewalScheduler((batch) => this.run(batch), {
      lease: options.watchdogTimeout,
      isCluster: executor.isCluster,
      onBatch: {
        renewed: (holds, lost, tookMs) => {
          if (events.listening('renewed')) events.emit('renewed', { holds, lost, tookMs });
        },
        failed: (error) => {
          if (events.listening('handledError')) events.emit('handledError', { operation: 'renew', error });
        },
      },
    });
    const sync = options.replicaSync && new ReplicaSync(executor, options.replicaSync, options.commandTimeout);
    this.confirmReplicas = sync && ((name, operation) => sync.confirm(name, operation));
    this.localHandoffs = options.localHandoff && new LocalHandoffs(options.localHandoff);
    executor.listen({
      onMessage: (channel, message) => this.#channels.deliver(channel, message),
      onSubscriberReconnect: () => this.#channels.wakeEveryone(),
    });
  }

  get closed(): boolean {
    return this.#closed;
  }

  assertOpen(): void {
    if (this.#closed) throw new ClientClosedError();
  }

  run<Reply>(command: Call<Reply>, onLateReply?: (reply: Reply) => void): Promise<Reply> {
    const publish = this.#publish;
    const key = command.keys[0] ?? '';
    // Once per client: check the server's version, learn the pub/sub mode and the server's clock
    // and check the eviction policy, then run as every later call does (with evictionPolicy 'throw' and an evicting
    // policy, every call rejects).
    if (!this.#ready || publish === undefined) return this.#firstUse(key).then(() => this.run(command, onLateReply));
    // On the hot path of every lock call: no async wrapper, one promise hop for the decode.
    const context: CommandContext = {
      publish,
      recordTtl: this.#recordTtl,
      now: Date.now(),
      deadline: this.#clock.deadline(this.#options.commandTimeout, key),
    };
    const late = onLateReply && ((reply: unknown) => onLateReply(command.decode(reply)));
    return this.#runner
      .run(command.script, command.keys, command.args(context), late)
      .then((reply) => command.decode(reply));
  }

  runOnce<Reply>(command: Call<Reply>): Promise<Reply> {
    return runOnce(() => this.run(command), { window: this.#options.commandTimeout, open: () => !this.#closed });
  }

  giveBack(command: Call<unknown>, failed: (error: unknown) => void): Promise<void> {
    const open = () => !this.#closed;
    return this.runOnce(command).then(
      () => undefined,
      (error: unknown) => {
        if (!(error instanceof RedisUnavailableError) || !open()) return failed(error);
        void runUntilLanded(() => this.run(command), { longestPause: this.#options.commandTimeout, open }).catch(
          failed,
        );
      },
    );
  }

  async publishCommand(): Promise<PublishCommand> {
    return (this.#publish ??= (await this.#shardedPubSub()) ? 'spublish' : 'publish');
  }

  async #firstUse(key: string): Promise<void> {
    await Promise.all([
      this.#version.version(),
      this.publishCommand(),
      this.#eviction.check(key),
      this.#clock.learn(key),
    ]);
    this.#ready = true;
  }

  newOwnerId(): string {
    return newGeneratedOwner();
  }

  newHoldId(): string {
    return `${this.#instance}:${++this.#nextHold}`;
  }

  channelMark(channel: string): ChannelMark | undefined {
    return this.#channels.mark(channel);
  }

  join(channel: string, wakes?: WakeRule): Promise<ChannelSubscription> {
    // A subscription the ACL user may not make fails the wait with what is missing.
    return this.#channels.join(channel, wakes).catch((error: unknown) => {
      const cause = error instanceof RedisUnavailableError ? error.cause : undefined;
      throw (
        (cause !== undefined && permissionDenied(cause, { operation: `the subscription to ${channel}`, channel })) ||
        error
      );
    });
  }

  keepAlive(
    target: RenewalTarget,
    onLost: (error: LockLostError) => void,
    acquiredAt: number,
    until?: number,
  ): Renewal {
    return this.#renewals.register(target, onLost, acquiredAt, until);
  }

  /** What the client is busy with. */
  activity(): LockClientActivity {
    return {
      renewing: this.#renewals.size,
      channels: this.#channels.channels,
      handoffLocks: this.localHandoffs?.size ?? 0,
    };
  }

  /**
   * Stops renewal (held locks then expire by their lease, their holders told now) and ends every
   * wait with `ClientClosedError`, then closes the executor. Call once.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#renewals.stop();
    await this.#channels.close(new ClientClosedError());
    await this.#executor.close();
  }

  // Whether lock channels use sharded pub/sub: every supported server (7.0+) has it.
  #shardedPubSub(): Promise<boolean> {
    const { pubsub } = this.#options;
    return Promise.resolve(pubsub === 'auto' ? this.#executor.isCluster : pubsub === 'sharded');
  }
}

/** Tells `evictionRisk` listeners, or, with none, the process (as an unheard `error` would be). */
function reportEvictionRisk(events: LockEvents, risk: EvictionRisk): void {
  if (events.listening('evictionRisk')) {
    events.emit('evictionRisk', risk);
    return;
  }
  process.emitWarning(
    `Redis may evict lock keys: its maxmemory-policy is ${risk.policy}; an evicted lock can be held twice. Use noeviction, or set the lock client's evictionPolicy.`,
    {
      type: 'DeadboltEvictionRisk',
      code: 'DEADBOLT_EVICTION_RISK',
    },
  );
}
