import type { OwnerHold } from '../commands/inputs.js';
import type { LocalHandoffOptions } from './LocalHandoffOptions.js';

/** A local waiter as {@link LocalHandoffs} sees it: a `HandoffReceiver`. */
export interface LocalWaiter {
  /** Set while the waiter sleeps: ends the sleep early. */
  interrupt: (() => void) | undefined;
  /**
   * Releases `from` and passes the lock to this waiter when it was its owner's last, as pass
   * `streak` of a run; resolves whether `from` stood.
   */
  receiveFrom(from: OwnerHold, streak: HandoffStreak): Promise<boolean>;
}

/** How far a client passes a lock between its own waiters before releasing it to everyone. */
export type LocalHandoffLimits = Readonly<Required<LocalHandoffOptions>>;

/**
 * A run of local passes of one lock, carried from hold to hold along it: how many passes so far,
 * and when the first was made (`performance.now()`).
 */
export interface HandoffStreak {
  readonly passes: number;
  readonly since: number;
}

/**
 * The local waiters of one client that a releasing holder of the same client may pass a lock to
 * (lock cohorting: Dice, Marathe and Shavit, PPoPP 2012). A release that finds such a waiter
 * passes the lock to it in one script, without a publish and without waking anyone else; after
 * {@link LocalHandoffLimits} a release goes to everyone again, so that other processes (and Java
 * services) get their turn. Waiters are passed the lock in the order they started waiting. The
 * run of passes travels with the holds ({@link HandoffStreak}), so nothing is kept per lock once
 * nobody waits.
 */
export class LocalHandoffs {
  readonly #limits: LocalHandoffLimits;
  // Per lock (kind and name): the waiters a release may pass to, in the order they started waiting.
  readonly #waiting = new Map<string, Set<LocalWaiter>>();

  constructor(limits: LocalHandoffLimits) {
    this.#limits = limits;
  }

  /** Makes `receiver` one that a release of lock `key` may pass to, until {@link LocalHandoffs.delist}. */
  enlist(key: string, receiver: LocalWaiter): void {
    let asleep = this.#waiting.get(key);
    if (!asleep) this.#waiting.set(key, (asleep = new Set()));
    asleep.add(receiver);
  }

  /** Takes `receiver` off lock `key`'s list; nothing when it is not on it. */
  delist(key: string, receiver: LocalWaiter): void {
    const asleep = this.#waiting.get(key);
    if (!asleep?.delete(receiver) || asleep.size > 0) return;
    this.#waiting.delete(key);
  }

  /**
   * For a holder about to release lock `key`, taken by `streak`'s last pass (`undefined` when it
   * took the lock itself): the receiver to pass it to, taken off the list, and the run's next
   * pass; `undefined` when nobody local waits for the lock or the run reached its limits (then
   * the release goes to everyone, and the next local pass starts a new run).
   */
  claim(key: string, streak: HandoffStreak | undefined): { readonly receiver: LocalWaiter; readonly streak: HandoffStreak } | undefined {
    const receiver = this.#waiting.get(key)?.values().next().value;
    if (!receiver) return undefined;
    const now = performance.now();
    if (streak && (streak.passes >= this.#limits.maxPasses || now - streak.since >= this.#limits.maxMillis)) return undefined;
    this.delist(key, receiver);
    return { receiver, streak: streak ? { passes: streak.passes + 1, since: streak.since } : { passes: 1, since: now } };
  }

  /** How many locks have local waiters a release may pass to. */
  get size(): number {
    return this.#waiting.size;
  }
}
