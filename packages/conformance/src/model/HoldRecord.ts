import type { HeldLock } from '@deadbolt/core';
import type { Half } from './ModelKind.js';
import { now } from './timing.js';

/**
 * Who an owner is to the model: the client it acquires on and its id, and whether the library
 * generated that id. Two holds with the same identity are one owner (they re-enter each other);
 * any other pair are distinct owners, even when their ids are equal strings.
 */
export interface OwnerIdentity {
  readonly client: number;
  readonly owner: string;
  readonly generated: boolean;
}

/** The key of an identity, for maps and comparisons. */
export function identityKey(identity: OwnerIdentity): string {
  return `${identity.client}|${identity.generated ? 'generated' : 'named'}|${identity.owner}`;
}

/** What the model knows and believes about one `HeldLock` of the run. */
export class HoldRecord {
  /** The hold's position in the run's list of holds, as steps name it. */
  readonly index: number;
  readonly held: HeldLock;
  readonly identity: OwnerIdentity;
  readonly half: Half;
  /** The Redis hash field that counts this hold. */
  readonly field: string;
  /** When the acquisition was sent and when it resolved (or the `withLock` callback began). */
  readonly sentAt: number;
  readonly resolvedAt: number;
  /** The fixed lease in force, `undefined` while the watchdog keeps it. */
  lease: number | undefined;
  /**
   * Until when this hold believes it holds, at the earliest (its lease from when its acquire or
   * extend was sent); `Infinity` for a watchdog hold.
   */
  believedEnd: number;
  /** By when its signal must have aborted, unless released: its lease's end plus slack, or after it was taken from it. */
  abortDeadline = Infinity;
  /** Whether Redis's hold count of {@link HoldRecord.field} includes this hold, as far as the model knows. */
  counted = true;
  /** Whether a snapshot has shown this hold counted in Redis. */
  confirmed = false;
  /**
   * Whether a release that rejected with the loss may have taken this hold out of Redis (it was
   * lost before, and Redis may still have kept it): Redis's count tells.
   */
  mayBeReleased = false;
  released = false;
  releaseCalledAt: number | undefined;
  abortedAt: number | undefined;
  /** When a `forceUnlock` deleted the lock under it. */
  forcedAt: number | undefined;
  /** When the model learnt that Redis no longer counts it (expired, taken over). */
  goneAt: number | undefined;

  constructor(init: {
    index: number;
    held: HeldLock;
    identity: OwnerIdentity;
    half: Half;
    field: string;
    sentAt: number;
    resolvedAt: number;
    lease: number | undefined;
    signalSlack: number;
  }) {
    this.index = init.index;
    this.held = init.held;
    this.identity = init.identity;
    this.half = init.half;
    this.field = init.field;
    this.sentAt = init.sentAt;
    this.resolvedAt = init.resolvedAt;
    this.lease = init.lease;
    this.believedEnd = init.lease === undefined ? Infinity : init.sentAt + init.lease;
    if (init.lease !== undefined) this.abortDeadline = init.resolvedAt + init.lease + init.signalSlack;
    const signal = init.held.signal;
    if (signal.aborted) this.abortedAt = now();
    else signal.addEventListener('abort', () => (this.abortedAt = now()), { once: true });
  }

  /** Not released, signal not aborted, not force-unlocked and, as far as the model knows, counted in Redis. */
  get live(): boolean {
    return this.counted && !this.released && this.abortedAt === undefined && this.forcedAt === undefined;
  }

  /** Until when Redis must keep this hold (`-Infinity` when nothing makes it: it may be gone any time). */
  get aliveUntil(): number {
    return this.live ? this.believedEnd : -Infinity;
  }

  /** When this hold stopped being its holder's, for the interval history: release, abort, force-unlock or lease end. */
  get intervalEnd(): number {
    return Math.min(
      this.releaseCalledAt ?? Infinity,
      this.abortedAt ?? Infinity,
      this.forcedAt ?? Infinity,
      this.believedEnd,
    );
  }

  /** A new lease set by a successful `extend(ms)` sent at `sentAt`, answered at `doneAt`. */
  extended(ms: number, sentAt: number, doneAt: number, signalSlack: number): void {
    this.lease = ms;
    this.believedEnd = sentAt + ms;
    this.abortDeadline = doneAt + ms + signalSlack;
  }

  /** Redis lost this hold (seen at `at`); a watchdog hold must learn it by its next renewal. */
  lost(at: number, renewalGrace: number): void {
    this.counted = false;
    this.goneAt ??= at;
    if (this.lease === undefined) this.abortDeadline = Math.min(this.abortDeadline, at + renewalGrace);
  }

  /** A short description for messages. */
  describe(): string {
    const lease = this.lease === undefined ? 'watchdog' : `lease ${this.lease}`;
    const who = `${this.identity.generated ? 'generated' : 'named'} '${this.identity.owner}' on c${this.identity.client}`;
    const state = this.released
      ? 'released'
      : this.abortedAt !== undefined
        ? 'aborted'
        : this.forcedAt !== undefined
          ? 'forced'
          : this.counted
            ? 'live'
            : 'gone';
    return `hold[${this.index}] ${this.half} ${who} (${lease}, ${state})`;
  }
}
