import { EventEmitter } from 'node:events';
import type { LockClientEvents } from '../src/client/LockClientEvents.js';
import { lockEvents } from '../src/client/LockEvents.js';
import type { AcquireReply, HandOffReply, ReleaseReply } from '../src/commands/replies.js';
import { ClientClosedError } from '../src/errors/LockError.js';
import type { LocalHandoffs } from '../src/handoff/LocalHandoffs.js';
import { heldLock, type HeldLock } from '../src/lock/HeldLock.js';
import type { AttemptContext, LockKind, WaitContext } from '../src/lock/LockKind.js';
import type { Backoff } from '../src/lock/spinToAcquire.js';
import type { ChannelMark, ChannelSubscription } from '../src/pubsub/ChannelHub.js';
import type { CoreRuntime } from '../src/runtime/CoreRuntime.js';
import type { Call, Command } from '../src/scripts/Command.js';
import type { Script } from '../src/scripts/Script.js';
import type { HandOffInput } from '../src/commands/inputs.js';
import type { RenewCommand } from '../src/commands/renewBatch.js';

/**
 * A lock runtime and kind for unit tests of acquisitions, with no Redis: each operation of the
 * fake kind is a request the runtime logs and answers as the test says. Every give-back is a
 * release by hold id.
 */

/** One request the fake kind made, as the fake runtime received it. */
export type Request =
  | { readonly op: 'acquire'; readonly attempt: AttemptContext }
  | { readonly op: 'release'; readonly field: string; readonly hold: string }
  | { readonly op: 'extend'; readonly field: string; readonly hold: string; readonly lease: number }
  | { readonly op: 'leave'; readonly wait: WaitContext }
  | { readonly op: 'handOff' }
  | { readonly op: 'other' };

/** How the fake runtime answers an attempt: with a reply, a reply that comes only after the call failed, or an error. */
export type Answer =
  AcquireReply<null> | { readonly late: AcquireReply<null>; readonly error: Error } | { readonly error: Error };

const asCall = <Reply>(request: Request): Call<Reply> => request as unknown as Call<Reply>;

/** A subscription whose sleeps last their timeout unless the test wakes them. */
export class FakeSubscription implements ChannelSubscription {
  readonly sleeps: number[] = [];
  passedWakes = 0;
  released = false;
  /** Messages the channel had since the runtime's `mark` was taken. */
  messagesSinceMark = 0;
  #wake: (() => void) | undefined;

  sleep(
    timeout: number,
    signal?: AbortSignal,
    interruptible?: { interrupt: (() => void) | undefined },
  ): Promise<boolean> {
    this.sleeps.push(timeout);
    return new Promise((resolve, reject) => {
      const done = (woken: boolean) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (interruptible) interruptible.interrupt = undefined;
        this.#wake = undefined;
        resolve(woken);
      };
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      const timer = setTimeout(() => done(false), timeout);
      this.#wake = () => done(true);
      if (interruptible) interruptible.interrupt = () => done(false);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A release message: ends the sleep, woken. */
  wake(): void {
    this.#wake?.();
  }

  passWake(): void {
    this.passedWakes++;
  }

  missedNothingSince(mark: ChannelMark | undefined): boolean {
    return mark !== undefined && this.messagesSinceMark === 0;
  }

  release(): void {
    this.released = true;
  }
}

/** The fake runtime's settings. */
export interface FakeRuntimeOptions {
  /** Answers each attempt; default: taken. */
  readonly answer?: (attempt: AttemptContext) => Answer;
  readonly localHandoffs?: LocalHandoffs;
  readonly confirmReplicas?: CoreRuntime['confirmReplicas'];
}

/** The fake runtime: see the file's comment. */
export class FakeLockRuntime implements CoreRuntime {
  readonly clientId = 'client';
  readonly watchdogTimeout = 30_000;
  readonly defaultWaitTime = Infinity;
  readonly emitter = new EventEmitter<LockClientEvents>();
  readonly events = lockEvents(this.emitter);
  readonly subscription = new FakeSubscription();
  /** Every request, in order, and how it was sent: `run`, `runOnce` or `giveBack`. */
  readonly log: { readonly via: 'run' | 'runOnce' | 'giveBack'; readonly request: Request }[] = [];
  readonly joined: string[] = [];
  readonly kept: { readonly hold: string; readonly until: number | undefined }[] = [];
  readonly localHandoffs: LocalHandoffs | undefined;
  readonly confirmReplicas: CoreRuntime['confirmReplicas'];
  closed = false;
  /** What `channelMark` answers: set it for a channel subscribed before the first attempt. */
  mark: ChannelMark | undefined;
  answer: (attempt: AttemptContext) => Answer;
  #ids = 0;

  constructor(options: FakeRuntimeOptions = {}) {
    this.answer = options.answer ?? (() => ({ status: 'taken', grant: null }));
    this.localHandoffs = options.localHandoffs;
    this.confirmReplicas = options.confirmReplicas;
  }

  /** The hold ids of the releases sent so far, by how they were sent. */
  released(via?: 'run' | 'giveBack'): string[] {
    return this.log.flatMap(({ via: sent, request }) =>
      request.op === 'release' && (via === undefined || sent === via) ? [request.hold] : [],
    );
  }

  /** The requests of one kind. */
  sent(op: Request['op']): Request[] {
    return this.log.filter(({ request }) => request.op === op).map(({ request }) => request);
  }

  assertOpen(): void {
    if (this.closed) throw new ClientClosedError();
  }

  async run<Reply>(call: Call<Reply>, onLateReply?: (reply: Reply) => void): Promise<Reply> {
    return this.#answer(call, 'run', onLateReply);
  }

  async runOnce<Reply>(call: Call<Reply>): Promise<Reply> {
    return this.#answer(call, 'runOnce');
  }

  async giveBack(call: Call<unknown>): Promise<void> {
    await this.#answer(call, 'giveBack');
  }

  async publishCommand(): Promise<'publish'> {
    return 'publish';
  }

  newOwnerId(): string {
    return `#${++this.#ids}`;
  }

  newHoldId(): string {
    return `h${++this.#ids}`;
  }

  channelMark(): ChannelMark | undefined {
    return this.mark;
  }

  async join(channel: string): Promise<ChannelSubscription> {
    this.joined.push(channel);
    return this.subscription;
  }

  keepAlive(target: { readonly hold: string }, _onLost: unknown, _at: number, until?: number): { cancel(): void } {
    this.kept.push({ hold: target.hold, until });
    return { cancel: () => undefined };
  }

  async #answer<Reply>(call: Call<Reply>, via: 'run' | 'runOnce' | 'giveBack', onLate?: (reply: Reply) => void) {
    await Promise.resolve();
    // The hand-off is a real command (the receiver binds it itself): the only call with a script.
    const request = ('script' in call ? { op: 'handOff' } : call) as unknown as Request;
    this.log.push({ via, request });
    let reply: unknown = null;
    if (request.op === 'acquire') {
      const answer = this.answer(request.attempt);
      if ('error' in answer) {
        if ('late' in answer) setTimeout(() => onLate?.(answer.late as Reply), 0);
        throw answer.error;
      }
      reply = answer;
    } else if (request.op === 'release') {
      reply = 'freed' satisfies ReleaseReply;
    } else if (request.op === 'extend') {
      reply = true;
    } else if (request.op === 'handOff') {
      reply = { status: 'passed', grant: null } satisfies HandOffReply<null>;
    }
    return reply as Reply;
  }
}

/** A hand-off command whose script is named `handoff`: waiters of a fake kind with it enlist as `handoff\n<name>`. */
const FAKE_HAND_OFF: Command<HandOffInput, HandOffReply<null>> = {
  script: { name: 'handoff' } as Script,
  keys: () => [],
  args: () => [],
  decode: (reply) => reply as HandOffReply<null>,
};

/** The fake kind: each operation a {@link Request} for the fake runtime. */
export function fakeKind(
  extra: {
    readonly leave?: boolean;
    readonly backoff?: Backoff;
    readonly guardsFixedLeases?: boolean;
    readonly handOff?: boolean;
  } = {},
): LockKind<null, HeldLock> {
  return {
    kindName: 'fake',
    acquire: (attempt) => asCall({ op: 'acquire', attempt }),
    release: (field, hold) => asCall({ op: 'release', field, hold }),
    forceRelease: () => asCall({ op: 'other' }),
    extend: (field, hold, lease) => asCall({ op: 'extend', field, hold, lease }),
    state: () => asCall({ op: 'other' }),
    ...(extra.leave ? { leave: (wait: WaitContext) => asCall({ op: 'leave', wait }) } : {}),
    ...(extra.backoff ? { backoff: extra.backoff } : {}),
    ...(extra.handOff ? { handOff: FAKE_HAND_OFF } : {}),
    guardsFixedLeases: extra.guardsFixedLeases ?? false,
    renew: {} as RenewCommand,
    waitChannel: (field) => `channel:${field}`,
    held: heldLock,
  };
}
