import type { HandOffInput, OwnerHold } from '../commands/inputs.js';
import type { HandOffReply } from '../commands/replies.js';
import { RedisUnavailableError } from '../errors/LockError.js';
import type { LockRuntime } from '../runtime/LockRuntime.js';
import { call, type Command } from '../scripts/Command.js';
import type { HandoffStreak, LocalHandoffs, LocalWaiter } from './LocalHandoffs.js';

/**
 * A lock taken by a waiter: the hold it got, what the kind's script granted, when it was sent, and
 * for a lock passed by a local holder, the run of passes it is part of.
 */
export interface Passed<Grant> {
  readonly hold: string;
  readonly grant: Grant;
  readonly acquiredAt: number;
  readonly streak?: HandoffStreak;
  /**
   * For a lock passed to a waiter the watchdog will keep it for: ends the pass's count of it as
   * standing in the client (see `LocalHandoffs.stand`), which its hold takes over.
   */
  readonly endStanding?: (() => void) | undefined;
}

/** What a {@link HandoffReceiver} needs of the lock it waits for. */
export interface ReceivingLock<Grant> {
  readonly runtime: LockRuntime;
  /** The lock's name. */
  readonly name: string;
  /** The kind's hand-off. */
  readonly handOff: Command<HandOffInput, HandOffReply<Grant>>;
  /** How the client's hand-offs know the lock: its kind's hand-off script and its name. */
  readonly key: string;
  /** Gives back hold `hold` of `field` by id, whatever came of it (does nothing if it was never taken). */
  giveBack: (field: string, hold: string) => Promise<void>;
}

/** A {@link HandoffReceiver} as the wait loop sees it. */
export interface Receiver<Grant> {
  interrupt: (() => void) | undefined;
  enlist(): void;
  close(): void;
  collect(): Promise<Passed<Grant> | null> | undefined;
}

/**
 * One waiting acquisition that a holder of the same client may pass the lock to while it sleeps:
 * enlisted with the client's {@link LocalHandoffs} meanwhile. The holder that claims it calls
 * {@link HandoffReceiver.receiveFrom}, which runs the hand-off and ends the sleep; the waiter then
 * {@link HandoffReceiver.collect}s the outcome.
 *
 * @typeParam Grant - what the kind's hand-off grants, as its acquire does
 */
export class HandoffReceiver<Grant> implements LocalWaiter, Receiver<Grant> {
  interrupt: (() => void) | undefined;
  readonly #handoffs: LocalHandoffs;
  readonly #lock: ReceivingLock<Grant>;
  readonly #field: string;
  readonly #lease: number;
  readonly #keptByWatchdog: boolean;
  #offer: Promise<Passed<Grant> | null> | undefined;
  #closed = false;

  /**
   * @param field - the waiter's owner field
   * @param lease - the lease the waiter asked for, in milliseconds
   * @param keptByWatchdog - whether the waiter asked for no lease of its own: the watchdog will keep
   *   what it is passed
   */
  constructor(
    handoffs: LocalHandoffs,
    lock: ReceivingLock<Grant>,
    field: string,
    lease: number,
    keptByWatchdog: boolean,
  ) {
    this.#handoffs = handoffs;
    this.#lock = lock;
    this.#field = field;
    this.#lease = lease;
    this.#keptByWatchdog = keptByWatchdog;
  }

  /**
   * Lets a release pass the lock to this waiter while it sleeps; nothing once the wait ended
   * ({@link HandoffReceiver.close}): a pass that came to nothing re-enlists the waiter, and may
   * settle after the wait ended otherwise.
   */
  enlist(): void {
    if (!this.#closed) this.#handoffs.enlist(this.#lock.key, this);
  }

  /** The wait ended: no release passes the lock to this waiter any more. */
  close(): void {
    this.#closed = true;
    this.#handoffs.delist(this.#lock.key, this);
  }

  /**
   * For the holder that claimed this waiter: releases `from` and, when it was its owner's last,
   * passes the lock to this waiter in the same script, as pass `streak` of a run, then ends the
   * waiter's sleep (a waiter passed nothing, as when the script `released` the lock to everyone,
   * tries again). Resolves whether `from` stood, as a release does. An uncertain outcome (Redis
   * unreachable) gives the waiter's new hold back by id, which does nothing if it was not passed,
   * and rejects: calling the release again is safe, its latch returns the first outcome.
   */
  receiveFrom(from: OwnerHold, streak: HandoffStreak): Promise<boolean> {
    const { runtime, name, handOff, giveBack, key } = this.#lock;
    const to: OwnerHold = { field: this.#field, hold: runtime.newHoldId() };
    const acquiredAt = performance.now();
    // From the pass on, a task of this client that asks for the lock waits its turn instead of trying.
    const endStanding = this.#keptByWatchdog ? this.#handoffs.stand(key, this.#field) : undefined;
    const passing = runtime.run(call(handOff, { name, from, to, lease: this.#lease }));
    this.#offer = passing.then(
      (reply) => {
        if (reply.status === 'passed') return { hold: to.hold, grant: reply.grant, acquiredAt, streak, endStanding };
        endStanding?.();
        return null;
      },
      (error: unknown) => {
        endStanding?.();
        if (error instanceof RedisUnavailableError) void giveBack(to.field, to.hold);
        return null;
      },
    );
    this.interrupt?.();
    return passing.then((reply) => reply.status !== 'notHeld');
  }

  /**
   * For the waiter: `undefined` when no holder passed it the lock since the last call; else
   * resolves the lock passed to it once it holds it, `null` when nothing was passed. Never rejects.
   */
  collect(): Promise<Passed<Grant> | null> | undefined {
    const offer = this.#offer;
    this.#offer = undefined;
    return offer;
  }
}
