import type { HeldLockGroup } from '@deadbolt/multilock';
import { now } from './timing.js';

/** What the group model knows about one held group. */
export class GroupHold {
  readonly index: number;
  readonly held: HeldLockGroup;
  readonly user: number;
  /** `<user>|<owner>`: holds with equal identity are one owner (they re-enter each other). */
  readonly identity: string;
  readonly resolvedAt: number;
  /** Until when it believes it holds, at the earliest; `Infinity` for the watchdog. */
  believedEnd: number;
  abortDeadline: number;
  /** Whether its members may still be in Redis (not released, not known taken over). */
  present = true;
  released = false;
  releaseCalledAt: number | undefined;
  abortedAt: number | undefined;

  constructor(init: {
    index: number;
    held: HeldLockGroup;
    user: number;
    sentAt: number;
    resolvedAt: number;
    lease: number | undefined;
    signalSlack: number;
  }) {
    this.index = init.index;
    this.held = init.held;
    this.user = init.user;
    this.identity = `${init.user}|${init.held.owner}`;
    this.resolvedAt = init.resolvedAt;
    this.believedEnd = init.lease === undefined ? Infinity : init.sentAt + init.lease;
    this.abortDeadline = init.lease === undefined ? Infinity : init.resolvedAt + init.lease + init.signalSlack;
    if (init.held.signal.aborted) this.abortedAt = now();
    else init.held.signal.addEventListener('abort', () => (this.abortedAt = now()), { once: true });
  }

  /** Not released, signal not aborted, members possibly in Redis. */
  get live(): boolean {
    return this.present && !this.released && this.abortedAt === undefined;
  }

  /** When it stopped being its holder's: release, abort or the end of its believed lease. */
  get intervalEnd(): number {
    return Math.min(this.releaseCalledAt ?? Infinity, this.abortedAt ?? Infinity, this.believedEnd);
  }

  describe(): string {
    const lease = Number.isFinite(this.believedEnd) ? 'fixed lease' : 'watchdog';
    const state = this.released
      ? 'released'
      : this.abortedAt !== undefined
        ? 'aborted'
        : this.present
          ? 'live'
          : 'gone';
    return `group[${this.index}] of user ${this.user} owner '${this.held.owner}' (${lease}, ${state})`;
  }
}
