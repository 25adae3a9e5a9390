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

/** A local waiter claimed by a releasing holder, and the pass it would be in its run. */
export interface Claim {
  readonly receiver: LocalWaiter;
  readonly streak: HandoffStreak;
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
 *
 * A run that reached its limits steps back: the release that ends it goes to everyone, and from
 * its sending until one round trip after its reply this client's own waiters do not try the lock
 * (see {@link LocalHandoffs.holdOff}), so that waiters of other processes, woken by that release,
 * take the next turn rather than the releasing process again at once.
 */
export class LocalHandoffs {
  readonly #limits: LocalHandoffLimits;
  // Per lock (kind and name): the waiters a release may pass to, in the order they started waiting.
  // Mostly one (every waiting acquisition enlists, contended or not): then the waiter itself,
  // and a set only from the second, so that an uncontended acquisition allocates no set.
  readonly #waiting = new Map<string, LocalWaiter | Set<LocalWaiter>>();
  // Per lock whose run ended: until when (`performance.now()`) this client's waiters hold off.
  readonly #steppingBack = new Map<string, number>();
  // The round trip of the last release that ended a run, in milliseconds: how long the next
  // step-back is first guessed to need.
  #roundTrip = 1;
  // Per lock: the owner fields of this client's holds of it that the watchdog keeps, each with how
  // many such holds it has (re-entries count), from their first renewal's start until they end.
  readonly #standing = new Map<string, Map<string, number>>();

  constructor(limits: LocalHandoffLimits) {
    this.#limits = limits;
  }

  /** Makes `receiver` one that a release of lock `key` may pass to, until {@link LocalHandoffs.delist}. */
  enlist(key: string, receiver: LocalWaiter): void {
    const asleep = this.#waiting.get(key);
    if (asleep === undefined) this.#waiting.set(key, receiver);
    else if (asleep instanceof Set) asleep.add(receiver);
    else if (asleep !== receiver) this.#waiting.set(key, new Set([asleep, receiver]));
  }

  /** Takes `receiver` off lock `key`'s list; nothing when it is not on it. */
  delist(key: string, receiver: LocalWaiter): void {
    const asleep = this.#waiting.get(key);
    if (asleep === receiver || (asleep instanceof Set && asleep.delete(receiver) && asleep.size === 0))
      this.#waiting.delete(key);
  }

  /**
   * For a holder about to release lock `key`, taken by `streak`'s last pass (`undefined` when it
   * took the lock itself): the receiver to pass it to, taken off the list, and the run's next
   * pass; `'runEnded'` when a local waiter waits but the run reached its limits (the release goes
   * to everyone, see {@link LocalHandoffs.beginStepBack}; the next local pass starts a new run);
   * `undefined` when nobody local waits for the lock.
   */
  claim(key: string, streak: HandoffStreak | undefined): Claim | 'runEnded' | undefined {
    const asleep = this.#waiting.get(key);
    const receiver = asleep instanceof Set ? asleep.values().next().value : asleep;
    if (!receiver) return undefined;
    const now = performance.now();
    if (streak && (streak.passes >= this.#limits.maxPasses || now - streak.since >= this.#limits.maxMillis))
      return 'runEnded';
    this.delist(key, receiver);
    return {
      receiver,
      streak: streak ? { passes: streak.passes + 1, since: streak.since } : { passes: 1, since: now },
    };
  }

  /**
   * Before the release that ends a run of lock `key` is sent: this client's waiters hold off from
   * now for two round trips (the last such release's), at most `maxMillis`: the release's own, and
   * the head start a waiter of another process needs to hear of it and try. Its publish may wake
   * them before its reply comes back, so the hold-off starts here. Returns when it started.
   */
  beginStepBack(key: string): number {
    const now = performance.now();
    // Forget the locks whose step-back is over, so that the map holds only the current ones.
    for (const [lock, until] of this.#steppingBack) if (until <= now) this.#steppingBack.delete(lock);
    this.#steppingBack.set(key, now + Math.min(2 * this.#roundTrip, this.#limits.maxMillis));
    return now;
  }

  /**
   * The release of lock `key` sent at `sent` came back (or failed): if it `freed` the lock, the
   * hold-off lasts one more round trip, this one's, from now; if not (the owner still holds it,
   * or the release failed), it ends. A process that nobody else contends with loses about two
   * round trips per run.
   */
  endStepBack(key: string, sent: number, freed: boolean): void {
    const now = performance.now();
    this.#roundTrip = now - sent;
    if (freed) this.#steppingBack.set(key, now + Math.min(this.#roundTrip, this.#limits.maxMillis));
    else this.#steppingBack.delete(key);
  }

  /** How long this client's waiters of lock `key` still hold off, in milliseconds: 0 when they may try. */
  holdOff(key: string): number {
    const until = this.#steppingBack.get(key);
    if (until === undefined) return 0;
    const left = until - performance.now();
    if (left > 0) return left;
    this.#steppingBack.delete(key);
    return 0;
  }

  /**
   * Counts a hold of lock `key` by `field` that the watchdog keeps as standing, until the returned
   * function is called (once; later calls do nothing): before its release is sent, when it turns
   * into a fixed lease, when it is lost.
   */
  stand(key: string, field: string): () => void {
    let fields = this.#standing.get(key);
    if (fields === undefined) this.#standing.set(key, (fields = new Map<string, number>()));
    const owners = fields;
    owners.set(field, (owners.get(field) ?? 0) + 1);
    let stands = true;
    return () => {
      if (!stands) return;
      stands = false;
      const left = (owners.get(field) ?? 1) - 1;
      if (left > 0) owners.set(field, left);
      else if (owners.delete(field) && owners.size === 0) this.#standing.delete(key);
    };
  }

  /**
   * Whether a hold of lock `key` that the watchdog keeps stands in this client for another owner
   * than `field`: an attempt would find the lock taken, and the hold's release will pass it to a
   * local waiter or announce it to everyone.
   */
  heldByAnother(key: string, field: string): boolean {
    const owners = this.#standing.get(key);
    return owners !== undefined && (owners.size > 1 || !owners.has(field));
  }

  /** How many locks this client's waiters hold off from (or did until lately: forgotten lazily). */
  get stepsBack(): number {
    return this.#steppingBack.size;
  }

  /** How many locks have local waiters a release may pass to. */
  get size(): number {
    return this.#waiting.size;
  }
}
